// The contributor API behind /upload?token=: every call carries the link's token in X-Upload-Token, this
// tab's contributor key in X-Contributor-Key (who sends, when not signed in) and the signed-in user's bearer
// when there is one, which apiFetch adds. Answers are parsed with the contract.
import {
  CONTRIBUTOR_KEY_HEADER,
  type ContributorLink,
  contributorLinkSchema,
  contributorReleaseAnswerSchema,
  contributorUploadAnswerSchema,
  type SignedUpload,
  signedUploadSchema,
  UPLOAD_TOKEN_HEADER,
} from '@omni/proto/api';
import { apiFetch } from '@omni/ui';
import type * as z from 'zod/mini';
import { contentTypeOf } from './upload';

const UNEXPECTED = 'The server sent an unexpected answer. Please try again later.';

function parseAnswer<T>(schema: z.ZodMiniType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(UNEXPECTED);
  return parsed.data;
}

const KEY_STORAGE = 'omni.contributorKey';
let memoryKey: string | undefined;

/**
 * This tab's own secret: 32 random bytes, made once and kept in sessionStorage so a reload keeps the same
 * sender (its files can still be replaced and submitted) while another tab or person on the same link is
 * someone else. The server keeps only its hash.
 */
export function contributorKey(): string {
  try {
    const kept = sessionStorage.getItem(KEY_STORAGE);
    if (kept) return kept;
  } catch {
    // Storage blocked: the key lives as long as this page.
  }
  memoryKey ??= newKey();
  try {
    sessionStorage.setItem(KEY_STORAGE, memoryKey);
  } catch {
    // As above.
  }
  return memoryKey;
}

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

const withToken = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: {
    ...(init.headers as Record<string, string>),
    [UPLOAD_TOKEN_HEADER]: token,
    [CONTRIBUTOR_KEY_HEADER]: contributorKey(),
  },
});

/** What the link allows now, or an ApiError with the refusal (not valid, revoked, expired, used up). */
export async function fetchLink(token: string, signal?: AbortSignal): Promise<ContributorLink> {
  const body = await apiFetch('/api/contributor/link', withToken(token, signal ? { signal } : {}));
  return parseAnswer(contributorLinkSchema, body);
}

export async function signContributorUpload(
  token: string,
  request: { bucket: string; folder?: string; file: File },
): Promise<SignedUpload> {
  const { file, ...rest } = request;
  const body = await apiFetch(
    '/api/contributor/uploads-sign',
    withToken(token, {
      method: 'POST',
      body: JSON.stringify({
        ...rest,
        fileName: file.name,
        contentType: contentTypeOf(file),
        size: file.size,
      }),
    }),
  );
  return parseAnswer(signedUploadSchema, body);
}

/** Records the PUT files as one pending submission with its title (one use of the link, whatever the count). */
export async function submitContributorUpload(
  token: string,
  request: { title: string; files: { bucket: string; fileKey: string }[] },
) {
  const body = await apiFetch(
    '/api/contributor/uploads',
    withToken(token, { method: 'POST', body: JSON.stringify(request) }),
  );
  return parseAnswer(contributorUploadAnswerSchema, body);
}

/** The audio release: the server makes the identifier code when `code` is blank (one use of the link). */
export async function submitContributorRelease(
  token: string,
  request: { title: string; artist: string; code?: string; fileKey: string },
) {
  const body = await apiFetch(
    '/api/contributor/releases',
    withToken(token, { method: 'POST', body: JSON.stringify(request) }),
  );
  return parseAnswer(contributorReleaseAnswerSchema, body);
}
