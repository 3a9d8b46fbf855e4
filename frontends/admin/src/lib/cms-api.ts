// The admin API of OMNI CMS as the screens call it; every answer is parsed with the contract's schema so a
// drifted gateway fails loudly here instead of rendering half a row.
import {
  type AdminUploadBody,
  type AssetStatus,
  adminUploadAnswerSchema,
  assetAnswerSchema,
  assetListSchema,
  type CreateLinkBody,
  createdLinkSchema,
  linkAnswerSchema,
  linkListSchema,
  mediaLinkSchema,
  pagesSchema,
  signedUploadSchema,
} from '@omni/proto/api';
import { apiFetch } from '@omni/ui';

const post = (path: string, body?: unknown) =>
  apiFetch(path, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

export const fetchPages = async () => pagesSchema.parse(await apiFetch('/api/admin/pages')).pages;

export async function fetchAssets(status: AssetStatus, cursor: string | null, limit = 25) {
  const query = new URLSearchParams({ status, limit: String(limit) });
  if (cursor) query.set('cursor', cursor);
  return assetListSchema.parse(await apiFetch(`/api/admin/assets?${query}`));
}

export const publishAsset = async (id: string) =>
  assetAnswerSchema.parse(await post(`/api/admin/assets/${encodeURIComponent(id)}/publish`)).asset;

export const rejectAsset = async (id: string, reason: string) =>
  assetAnswerSchema.parse(await post(`/api/admin/assets/${encodeURIComponent(id)}/reject`, { reason })).asset;

/** Where an admin previews any asset, published or not (a redirect to a short-lived signed URL). */
export const adminMediaUrl = (id: string) => `/api/admin/assets/${encodeURIComponent(id)}/media`;

export async function fetchLinks(cursor: string | null, limit = 50) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor) query.set('cursor', cursor);
  return linkListSchema.parse(await apiFetch(`/api/admin/upload-links?${query}`));
}

export const createLink = async (body: CreateLinkBody) =>
  createdLinkSchema.parse(await post('/api/admin/upload-links', body));

export const revokeLink = async (id: string) =>
  linkAnswerSchema.parse(await post(`/api/admin/upload-links/${encodeURIComponent(id)}/revoke`)).link;

export const signAdminUpload = async (file: { fileName: string; contentType: string; size: number }) =>
  signedUploadSchema.parse(await post('/api/admin/uploads-sign', file));

export const createAdminUpload = async (body: AdminUploadBody) =>
  adminUploadAnswerSchema.parse(await post('/api/admin/uploads', body));

/** A short-lived URL an <audio>/<video>/<img> can load directly (it cannot send the admin's bearer). */
export const fetchMediaLink = async (id: string) =>
  mediaLinkSchema.parse(await apiFetch(adminMediaUrl(id), { headers: { accept: 'application/json' } })).url;
