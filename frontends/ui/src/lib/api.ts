import type { ApiErrorBody } from '@omni/proto/api';
import { getSessionStore } from '@omni/ui/session';

/** Marks an ApiError whichever bundle made it (see `Symbol.hasInstance` below). */
const API_ERROR = Symbol.for('omni.ApiError');

/** An HTTP failure from the Omni API, carrying the server's own message when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly [API_ERROR] = true;

  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }

  /**
   * The UI kit is bundled into the shell and into every remote, so each has its own ApiError class:
   * a plain `instanceof` in the shell's query client did not recognise a remote's 404 and retried it
   * twice, with back-off (3.7 s before 'Release not found'). Any copy's errors pass any copy's check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && API_ERROR in value;
  }
}

/**
 * The gateway's own message, when the body is the API contract's error body. Checked by hand against the
 * contract's type rather than parsed with its schema: this kit is in every bundle, the shell's included,
 * and the schema would bring zod into each (about 14 KB more script for the shell).
 */
function errorMessageOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const { error } = body as Partial<ApiErrorBody>;
  const message: unknown = error?.message;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

/** What apiFetch says when the server sent no message of its own. */
const NO_MESSAGE_PREFIX = 'Request failed (';

/**
 * The server's own words about a failed call, fit to show as they are ('You already have an active Pro
 * subscription...'), or null for a generic failure (an unexplained 500, a status without a body), which a
 * screen replaces with its own text (spec §8: "generic non-2xx messages replaced").
 */
export function serverMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 500 || error.message.startsWith(NO_MESSAGE_PREFIX)) return null;
  return error.message.trim() === '' ? null : error.message;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface ApiFetchOptions {
  /**
   * Send the signed-in user's access token (default true). The auth endpoints themselves pass
   * false: a login must not carry, or try to refresh, somebody's old token.
   */
  auth?: boolean;
}

async function send(path: string, init: RequestInit, token: string | null): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  if (init.body !== undefined && typeof init.body === 'string' && !headers.has('content-type')) {
    headers.set('content-type', 'application/json');
  }
  if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  try {
    return await fetch(path, { credentials: 'same-origin', ...init, headers });
  } catch {
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0);
  }
}

/**
 * fetch() for the gateway's JSON API. Resolves to the parsed body; rejects with an ApiError whose
 * message is the gateway's `{ error: { message } }` (so screens can show it as is), or a generic
 * text naming the status when the body has none. Network failures reject with a readable message too.
 *
 * When signed in, the request carries `Authorization: Bearer <access token>` (refreshed first if it
 * is about to expire). A 401 on such a request refreshes the session once and retries; if the
 * refresh is refused the session is cleared (signed out) and the 401 is reported.
 */
export async function apiFetch<T = unknown>(
  path: string,
  init: RequestInit = {},
  options: ApiFetchOptions = {},
): Promise<T> {
  return readBody(await apiResponse(path, init, options)) as Promise<T>;
}

/**
 * apiFetch's request without reading the body: for answers read as they arrive (a text/event-stream).
 * Resolves to the response once its status is a success; fails as apiFetch does otherwise.
 */
export async function apiResponse(
  path: string,
  init: RequestInit = {},
  { auth = true }: ApiFetchOptions = {},
): Promise<Response> {
  const session = auth ? getSessionStore() : null;
  const token = session ? await session.getAccessToken().catch(() => null) : null;
  let response = await send(path, init, token);
  if (response.status === 401 && token && session) {
    const fresh = await session.refresh().catch(() => null);
    if (fresh) response = await send(path, init, fresh);
  }
  if (response.ok) return response;
  const body = await readBody(response);
  throw new ApiError(
    errorMessageOf(body) ?? `${NO_MESSAGE_PREFIX}${response.status} ${response.statusText})`.trim(),
    response.status,
  );
}
