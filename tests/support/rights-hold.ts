// A release the rights check holds, made through the HTTP surface as an artist makes one: a rendered song
// (in a child node: jest's sandbox renders 60× slower) uploaded as the master with a cover, then the review
// as the artist's release page reads it. Shared by the fingerprint review, proof-of-rights and evidence suites and the rights journey.
import { join } from 'node:path';
import { stereoSong } from '../../services/delivery/test/support/synth-out-of-process';
import type { SongOptions } from '../../services/delivery/test/support/synth-song';
import { png } from './media';
import { uploadFile } from './uploads';

export interface HoldApi {
  url: string;
  api(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
}

/**
 * HoldApi over plain fetch, for a product reached at `url()` — the e2e suites and journeys learn the address
 * only once it has started.
 */
export function fetchHoldApi(url: () => string): HoldApi {
  return {
    get url() {
      return url();
    },
    api: (path, init = {}) => {
      const { token, json, headers, ...rest } = init;
      return fetch(`${url()}${path}`, {
        ...rest,
        headers: {
          ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(headers as Record<string, string> | undefined),
        },
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
    },
  };
}

/** A single for one store, as the upload page sends it (releaseSong adds the master and the cover). */
export const singleBody = (title: string, artistName = 'Nova Reyes') => ({
  artistName,
  releaseTitle: title,
  trackTitle: title,
  releaseType: 'single',
  genre: 'Pop',
  releaseDate: '2026-09-01',
  explicit: false,
  stores: ['spotify'],
});

export interface HoldFinding {
  rule: string;
  severity: string;
  stores: string[];
  message: string;
  match?: {
    releaseId: string;
    track: number;
    title: string;
    score: number;
    offsetSeconds: number;
    speed: number;
    decision: string;
    /** The checked release's own track that matched (admins' view). */
    uploadTrack?: number;
  };
}

/** Creates a release (the artist form's `body`) whose master is `master` with a 3000×3000 cover; its id. */
export async function releaseSong(
  omni: HoldApi,
  token: string,
  body: Record<string, unknown>,
  master: Buffer,
  format: 'wav' | 'flac' = 'wav',
): Promise<string> {
  const title = String(body.releaseTitle);
  const audio = await uploadFile(omni.url, token, {
    bucket: 'omni-assets',
    fileName: `${title}.${format}`,
    contentType: `audio/${format}`,
    bytes: master,
    role: 'audio',
  });
  const artwork = await uploadFile(omni.url, token, {
    bucket: 'omni-assets',
    fileName: 'cover.png',
    contentType: 'image/png',
    bytes: png(3000, 3000),
    role: 'artwork',
  });
  const res = await omni.api('/api/releases', {
    method: 'POST',
    token,
    json: {
      ...body,
      audio: { bucket: audio.bucket, fileKey: audio.fileKey },
      artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
    },
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { release: { id: string } }).release.id;
}

/** The song as a stereo WAV master, rendered into `dir`. */
export const songMaster = (dir: string, name: string, options: SongOptions) =>
  stereoSong(join(dir, `${name}.wav`), options);

/** The review as the artist's release page reads it, once delivery has made it. */
export async function artistReviewOf(
  omni: HoldApi,
  token: string,
  releaseId: string,
  waitUntil: <T>(probe: () => Promise<T | undefined>, ms: number, what: string) => Promise<T>,
) {
  return waitUntil(
    async () => {
      const r = await omni.api(`/api/releases/${releaseId}/deliveries`, { token });
      const body = (await r.json()) as {
        review: { status: string; findings: HoldFinding[]; proofs: unknown[] } | null;
      };
      return body.review ?? undefined;
    },
    120_000,
    `the review of ${releaseId}`,
  );
}
