// FindRecordings: whose these ISRCs (recordings) and UPCs (whole releases) are, for royalties matching the
// lines of stores' sales reports. Unknown codes are simply absent from the answer.
import { invalidArgument } from '@omni/platform';
import type { catalog } from '@omni/proto';
import type { CatalogStore } from '../store/catalog-store';

const MAX_CODES = 1000;

export async function findRecordings(
  store: CatalogStore,
  req: catalog.FindRecordingsRequest,
): Promise<catalog.FindRecordingsResponse> {
  if (req.isrcs.length > MAX_CODES || req.upcs.length > MAX_CODES)
    throw invalidArgument(`At most ${MAX_CODES} ISRCs and ${MAX_CODES} UPCs in one lookup.`);
  const isrcs = req.isrcs.map((c) => c.trim().toUpperCase()).filter(Boolean);
  const upcs = req.upcs.map((c) => c.trim()).filter(Boolean);
  const { tracks, releases, releaseById, artists } = await store.findRecordings(isrcs, upcs);
  const artistName = (artistId: string) => artists.get(artistId)?.name ?? '';
  const found: catalog.FoundRecording[] = [];
  for (const t of tracks) {
    const r = releaseById.get(t.releaseId);
    if (!r) continue;
    found.push({
      code: t.isrc,
      ownerId: r.userId,
      releaseId: r._id,
      releaseTitle: r.title,
      trackId: t._id,
      trackTitle: t.title,
      isrc: t.isrc,
      upc: r.upc,
      artistName: artistName(r.artistId),
    });
  }
  for (const r of releases)
    found.push({
      code: r.upc,
      ownerId: r.userId,
      releaseId: r._id,
      releaseTitle: r.title,
      trackId: '',
      trackTitle: '',
      isrc: '',
      upc: r.upc,
      artistName: artistName(r.artistId),
    });
  return { found };
}
