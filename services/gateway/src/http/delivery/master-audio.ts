// GET /api/admin/releases/:id/tracks/:n/audio — a track's master as the admin listens to it while judging a
// rights-check match (the held upload beside the recording it matched). Admins only: an artist never gets
// another artist's audio. Streamed through here like a proof of rights (no public link), with Range passed
// to the store so the player can seek to the aligned offset (206 with Content-Range; 416 when the range
// lies past the end).
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type Guards, notFound, parseParams } from '@omni/platform';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';
import { type CatalogClient, visibleRelease } from '../catalog/release-access';
import { type StorageClient, signedLink } from './stored-object';

const params = z
  .object({ id: z.string().min(1).max(100), n: z.coerce.number().int().min(1).max(999) })
  .strict();

const AUDIO_TYPES: Record<string, string> = { wav: 'audio/wav', flac: 'audio/flac' };
/** One byte range, as a player asks for it: `bytes=start-` or `bytes=start-end`. */
const RANGE = /^bytes=\d*-\d*$/;

export function masterAudioRoutes(
  catalogClient: CatalogClient,
  storageClient: StorageClient,
  guards: Guards,
): Router {
  const router = createRouter();
  router.get('/releases/:id/tracks/:n/audio', guards.requireAdmin, async (req, res) => {
    const { n } = parseParams(params, req);
    const release = await visibleRelease(catalogClient, req);
    const track = release.tracks.find((t) => t.trackNumber === n);
    if (!track?.audio?.fileKey) throw notFound('No such track.');
    const range = req.header('range');
    const file = await fetch(await signedLink(storageClient, req, track.audio.bucket, track.audio.fileKey), {
      headers: range && RANGE.test(range) ? { range } : {},
    });
    if (file.status === 416) {
      res
        .status(416)
        .set('Content-Range', file.headers.get('content-range') ?? 'bytes */*')
        .end();
      return;
    }
    if (!file.ok || !file.body) throw notFound('No such track.');
    const extension = track.audio.fileKey.split('.').pop()?.toLowerCase() ?? '';
    const type = AUDIO_TYPES[track.audioFormat?.format ?? ''] ?? AUDIO_TYPES[extension];
    res.status(file.status === 206 ? 206 : 200).set({
      'Content-Type': type ?? 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(file.headers.get('content-length') ? { 'Content-Length': file.headers.get('content-length') } : {}),
      ...(file.headers.get('content-range') ? { 'Content-Range': file.headers.get('content-range') } : {}),
    });
    Readable.fromWeb(file.body as WebReadableStream<Uint8Array>).pipe(res);
  });
  return router;
}
