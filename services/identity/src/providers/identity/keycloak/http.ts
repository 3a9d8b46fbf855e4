// Small fetch helpers for Keycloak: form posts to the OIDC endpoints, JSON calls to the admin API, and
// errors that name the endpoint and status but never echo a body (Keycloak may quote what it was sent).
// Keycloak not answering (refused connection, timeout, its own 5xx) is IdentityError('unavailable'), which
// identity answers as UNAVAILABLE and the gateway as a 503 with a sentence, never as an internal error.
import { IdentityError } from '../port';

export class KeycloakHttpError extends Error {
  constructor(
    readonly status: number,
    readonly oauthError: string | undefined,
    readonly description: string | undefined,
    where: string,
  ) {
    super(`Keycloak ${where} answered ${status}${oauthError ? ` (${oauthError})` : ''}`);
    this.name = 'KeycloakHttpError';
  }
}

interface OAuthErrorBody {
  error?: string;
  error_description?: string;
  errorMessage?: string;
}

/** Why a request never got an answer: the refused connection's code, or the timeout. */
function failureOf(err: unknown, timeoutMs: number): string {
  if (err instanceof DOMException && err.name === 'TimeoutError')
    return `no answer within ${Math.round(timeoutMs / 100) / 10} s`;
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code ?? (err as Error).message ?? 'network error';
}

/** fetch, with every way Keycloak can fail to answer turned into IdentityError('unavailable'). */
export async function keycloakFetch(
  url: string,
  init: RequestInit,
  where: string,
  timeoutMs: number,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new IdentityError(
      'unavailable',
      `Keycloak could not be reached for ${where} (${failureOf(err, timeoutMs)}).`,
    );
  }
  if (res.status >= 500) {
    await res.arrayBuffer().catch(() => undefined);
    throw new IdentityError('unavailable', `Keycloak failed on ${where} (${res.status}).`);
  }
  return res;
}

async function errorOf(res: Response, where: string): Promise<KeycloakHttpError> {
  const body = (await res.json().catch(() => ({}))) as OAuthErrorBody;
  return new KeycloakHttpError(res.status, body.error, body.error_description ?? body.errorMessage, where);
}

export async function postForm<T>(
  url: string,
  form: Record<string, string>,
  where: string,
  timeoutMs = 5000,
): Promise<T> {
  const res = await keycloakFetch(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    },
    where,
    timeoutMs,
  );
  if (!res.ok) throw await errorOf(res, where);
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export async function callJson<T>(
  url: string,
  init: { method?: string; body?: unknown; bearer: string },
  where: string,
  timeoutMs = 5000,
): Promise<{ status: number; body: T | undefined; location: string | null }> {
  const res = await keycloakFetch(
    url,
    {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.bearer}`,
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    },
    where,
    timeoutMs,
  );
  if (res.status === 404) return { status: 404, body: undefined, location: null };
  if (!res.ok) throw await errorOf(res, where);
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as T) : undefined,
    location: res.headers.get('location'),
  };
}
