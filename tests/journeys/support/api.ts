// The HTTP steps the journeys take where no one needs to click: the admin's sign-in, a release created as
// the upload page creates it (files signed, PUT and completed, then POST /api/releases), its deliveries.
import type { ReleaseDeliveryJson } from '@omni/proto/api';
import { png, wav } from '../../support/media';
import type { ApiSession } from '../../support/session';
import { uploadFile } from '../../support/uploads';

export async function call(url: string, path: string, token: string | undefined, init: RequestInit = {}) {
  return fetch(`${url}${path}`, {
    ...init,
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...init.headers,
    },
  });
}

export async function login(url: string, email: string, password: string): Promise<ApiSession> {
  const res = await call(url, '/api/auth/login', undefined, {
    method: 'POST',
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`Sign-in of ${email}: ${res.status} ${await res.text()}`);
  return (await res.json()) as ApiSession;
}

/**
 * Signs `session` in again every 3 minutes, as the web app refreshes, for runs that outlast an access token
 * (the benches). The timer does not keep the process alive.
 */
export function keepSignedIn(url: string, session: ApiSession, email: string, password: string): void {
  const timer = setInterval(() => {
    login(url, email, password).then(
      (fresh) => Object.assign(session, fresh),
      () => undefined,
    );
  }, 180_000);
  timer.unref();
}

export interface NewRelease {
  title: string;
  stores: string[];
  /** Length of the master in seconds (a longer one takes longer to package). */
  seconds?: number;
  credits?: Record<string, unknown>;
  legal?: Record<string, unknown>;
  /** Extra request headers of the final POST (e.g. a browser's traceparent). */
  headers?: Record<string, string>;
}

/** A release with a real WAV and a 3000×3000 cover, as the Upload & Queue Delivery button sends it. */
export async function createRelease(
  url: string,
  session: ApiSession,
  release: NewRelease,
): Promise<{ id: string; isrc: string }> {
  const token = session.accessToken;
  const audio = await uploadFile(url, token, {
    bucket: 'omni-assets',
    fileName: 'master.wav',
    contentType: 'audio/wav',
    bytes: wav(release.seconds ?? 3, { tone: true }),
    role: 'audio',
  });
  const artwork = await uploadFile(url, token, {
    bucket: 'omni-assets',
    fileName: 'cover.png',
    contentType: 'image/png',
    bytes: png(3000, 3000),
    role: 'artwork',
  });
  const res = await call(url, '/api/releases', token, {
    method: 'POST',
    headers: release.headers,
    body: JSON.stringify({
      artistName: 'Journey Artist',
      releaseTitle: release.title,
      trackTitle: release.title,
      releaseType: 'single',
      audio: { bucket: audio.bucket, fileKey: audio.fileKey },
      artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
      credits: release.credits ?? {},
      legal: release.legal ?? {},
      stores: release.stores,
    }),
  });
  if (res.status !== 201) throw new Error(`POST /api/releases: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { release: { id: string; tracks: { isrc: string }[] } };
  return { id: body.release.id, isrc: body.release.tracks[0]?.isrc ?? '' };
}

export async function deliveries(
  url: string,
  token: string,
  releaseId: string,
): Promise<ReleaseDeliveryJson> {
  const res = await call(url, `/api/releases/${encodeURIComponent(releaseId)}/deliveries`, token);
  if (res.status !== 200) throw new Error(`GET deliveries: ${res.status} ${await res.text()}`);
  return (await res.json()) as ReleaseDeliveryJson;
}

/** The preselected stores of the upload page (GET /api/platforms). */
export async function preselectedStores(url: string): Promise<string[]> {
  const res = await call(url, '/api/platforms', undefined);
  if (res.status !== 200) throw new Error(`GET /api/platforms: ${res.status}`);
  return ((await res.json()) as { preselected: string[] }).preselected;
}
