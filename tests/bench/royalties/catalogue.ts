// The bench's catalogue: OWNERS artists with TRACKS_PER_OWNER recordings each, one release per artist.
// Catalog is answered from these arrays (the importer's only outside call): the bench measures the import,
// not catalog, which it asks once per code per import anyway.
export const OWNERS = Number(process.env.BENCH_ROYALTIES_OWNERS ?? 1000);
export const TRACKS_PER_OWNER = 10;

export const isrcOf = (i: number) => `QZOMN26${String(i).padStart(5, '0')}`;
export const upcOf = (owner: number) => `19${String(owner).padStart(10, '0')}`;
export const ownerOf = (owner: number) => `owner-${owner}`;

export function catalogue() {
  const tracks: Array<{ isrc: string; upc: string; owner: number; title: string }> = [];
  for (let o = 0; o < OWNERS; o += 1)
    for (let t = 0; t < TRACKS_PER_OWNER; t += 1)
      tracks.push({
        isrc: isrcOf(o * TRACKS_PER_OWNER + t),
        upc: upcOf(o),
        owner: o,
        title: `Track ${o}.${t}`,
      });
  return tracks;
}

/** catalog's FindRecordings over the bench's catalogue. */
export function fakeCatalog() {
  const byIsrc = new Map(catalogue().map((t) => [t.isrc, t]));
  return {
    async findRecordings(req: { isrcs: string[]; upcs: string[] }) {
      const found = [];
      for (const code of req.isrcs) {
        const t = byIsrc.get(code);
        if (t)
          found.push({
            code,
            ownerId: ownerOf(t.owner),
            releaseId: `release-${t.owner}`,
            releaseTitle: `Release ${t.owner}`,
            trackId: `track-${code}`,
            trackTitle: t.title,
            isrc: code,
            upc: t.upc,
            artistName: `Artist ${t.owner}`,
          });
      }
      return { found };
    },
  };
}
