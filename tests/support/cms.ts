// The OMNI CMS API the way its screens call it: an admin's upload (sign → PUT → uploads, published at
// once), upload links, and a contributor's submission through a link (sign → PUT → uploads, pending).
import { randomBytes } from 'node:crypto';

export interface CmsApi {
  /**
   * `/api/contributor/*` calls carry this api's contributor key (X-Contributor-Key), as one browser tab's
   * page does: two apis on one link are two anonymous contributors. `contributorKey: ''` sends none.
   */
  call(
    path: string,
    init?: RequestInit & { token?: string; uploadToken?: string; contributorKey?: string },
  ): Promise<Response>;
  readonly contributorKey: string;
  /** PUTs bytes to a signed URL on the test platform with the headers the sign call asked for. */
  put(
    signedUrl: string,
    bytes: Buffer,
    contentType: string,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

export function cmsApi(baseUrl: string): CmsApi {
  const ownKey = randomBytes(32).toString('base64url');
  return {
    contributorKey: ownKey,
    call: (path, init = {}) => {
      const key = init.contributorKey ?? (path.startsWith('/api/contributor/') ? ownKey : '');
      return fetch(`${baseUrl}${path}`, {
        ...init,
        redirect: 'manual',
        headers: {
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(init.uploadToken !== undefined ? { 'x-upload-token': init.uploadToken } : {}),
          ...(key ? { 'x-contributor-key': key } : {}),
          ...(init.headers as Record<string, string>),
        },
      });
    },
    put: (signedUrl, bytes, contentType, headers = {}) => {
      const target = new URL(signedUrl);
      const sent = new Headers(headers);
      sent.set('content-type', contentType);
      return fetch(`${baseUrl}${target.pathname}${target.search}`, {
        method: 'PUT',
        headers: sent,
        body: new Uint8Array(bytes),
      });
    },
  };
}

const ok = async (res: Response, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
};

export interface AssetJson {
  id: string;
  status: string;
  kind: string;
  title: string;
  pageSlug: string;
  mediaUrl: string;
  publishedAt: string | null;
  createdAt: string;
  [field: string]: unknown;
}

/** Sign and PUT an admin's file; returns the fileKey (no asset yet). */
export async function adminSignAndPut(
  api: CmsApi,
  admin: string,
  file: { fileName: string; contentType: string; bytes: Buffer },
): Promise<string> {
  const signed = await ok(
    await api.call('/api/admin/uploads-sign', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({
        fileName: file.fileName,
        contentType: file.contentType,
        size: file.bytes.length,
      }),
    }),
    200,
    'uploads-sign',
  );
  const put = await api.put(String(signed.signedUrl), file.bytes, file.contentType, {
    authorization: `Bearer ${admin}`,
  });
  if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`);
  return String(signed.fileKey);
}

/** An admin's upload, published at once. */
export async function adminUpload(
  api: CmsApi,
  admin: string,
  input: { pageSlug: string; kind: 'music' | 'video'; title: string; description?: string },
  file: { fileName: string; contentType: string; bytes: Buffer },
): Promise<AssetJson> {
  const fileKey = await adminSignAndPut(api, admin, file);
  const body = await ok(
    await api.call('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ ...input, source: 'file', fileKey }),
    }),
    201,
    'uploads',
  );
  return body.asset as AssetJson;
}

export async function createLink(
  api: CmsApi,
  admin: string,
  input: { pageSlug: string; maxUses?: number; expiresInHours?: number; allowFile?: boolean } = {
    pageSlug: 'music',
  },
): Promise<{ token: string; uploadUrl: string; link: Record<string, unknown> }> {
  const body = await ok(
    await api.call('/api/admin/upload-links', { method: 'POST', token: admin, body: JSON.stringify(input) }),
    201,
    'upload-links',
  );
  const uploadUrl = String(body.uploadUrl);
  return {
    uploadUrl,
    token: new URL(uploadUrl).searchParams.get('token')!,
    link: body.link as Record<string, unknown>,
  };
}

/** Sign and PUT a contributor's file through a link (anonymous unless `session` is given). */
export async function contributorSignAndPut(
  api: CmsApi,
  token: string,
  file: { bucket: string; folder?: string; fileName: string; contentType: string; bytes: Buffer },
  session?: string,
): Promise<{ fileKey: string; path: string }> {
  const { bytes, ...rest } = file;
  const signed = await ok(
    await api.call('/api/contributor/uploads-sign', {
      method: 'POST',
      uploadToken: token,
      token: session,
      body: JSON.stringify({ ...rest, size: bytes.length }),
    }),
    200,
    'contributor uploads-sign',
  );
  const headers = { ...(signed.headers as Record<string, string>) };
  if (session) headers.authorization = `Bearer ${session}`;
  const put = await api.put(String(signed.signedUrl), bytes, file.contentType, headers);
  if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`);
  return { fileKey: String(signed.fileKey), path: String(signed.path) };
}

/** One file as one submission; a title is required (moderation shows it), so one is given if none is. */
export const submitContributorFile = (
  api: CmsApi,
  token: string,
  body: { bucket: string; fileKey: string; title?: string; description?: string },
  session?: string,
) =>
  api.call('/api/contributor/uploads', {
    method: 'POST',
    uploadToken: token,
    token: session,
    body: JSON.stringify({ title: 'A contributor file', ...body }),
  });
