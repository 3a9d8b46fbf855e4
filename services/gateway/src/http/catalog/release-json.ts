// Catalog and delivery gRPC messages → the release JSON of the API contract (null for empty optionals).
import { catalog, type delivery } from '@omni/proto';
import type { ReleaseJson } from '@omni/proto/api';

export interface DeliveryJson {
  total: number;
  byStatus: Record<string, number>;
  jobs: { target: string; status: string; jobKind: string; updatedAt: string }[];
  /** True when delivery did not answer: the counts are unknown, not zero. */
  unavailable?: boolean;
}

export const deliveryJson = (
  summary: delivery.DeliverySummary | undefined,
  jobs: delivery.DeliveryJob[] = [],
): DeliveryJson => ({
  total: summary?.total ?? 0,
  byStatus: { ...(summary?.byStatus ?? {}) },
  jobs: jobs.map((j) => ({ target: j.target, status: j.status, jobKind: j.jobKind, updatedAt: j.updatedAt })),
});

/** A release just created or submitted: delivery has not queued its jobs yet (it does so from the event). */
export const NO_JOBS_YET: DeliveryJson = { total: 0, byStatus: {}, jobs: [] };

export const DELIVERY_UNKNOWN: DeliveryJson = { total: 0, byStatus: {}, jobs: [], unavailable: true };

export function releaseJson(r: catalog.Release, delivery: DeliveryJson): ReleaseJson {
  const m = r.metadata;
  return {
    id: r.id,
    title: r.title,
    releaseType: r.releaseType,
    genre: r.genre,
    label: r.label || null,
    releaseDate: r.releaseDate || null,
    status: r.status,
    upc: r.upc,
    artworkUrl: r.artworkUrl || null,
    artist: { id: r.artist?.id ?? '', name: r.artist?.name ?? '' },
    tracks: r.tracks.map((t) => ({
      id: t.id,
      trackNumber: t.trackNumber,
      title: t.title,
      isrc: t.isrc,
      durationSeconds: t.durationSeconds,
      explicit: t.explicit,
      genre: t.genre,
      audioUrl: t.audioUrl || null,
      discNumber: t.discNumber || 1,
      featuredArtists: t.featuredArtists.map((a) => ({ name: a.name, role: a.role })),
      credits: { ...catalog.Credits.fromPartial(t.credits ?? {}) },
      language: t.language,
      lyrics: t.lyrics,
    })),
    // Every field of each section, whatever catalog stores (ts-proto's fromPartial fills the defaults), so a
    // new field of the form reaches the release page without a change here.
    metadata: {
      credits: { ...catalog.Credits.fromPartial(m?.credits ?? {}) },
      technical: { ...catalog.Technical.fromPartial(m?.technical ?? {}), bpm: m?.technical?.bpm ?? null },
      legal: { ...catalog.Legal.fromPartial(m?.legal ?? {}) },
      content: { ...catalog.Content.fromPartial(m?.content ?? {}) },
    },
    stores: r.stores,
    // What some stores may refuse (each message names them); the release was accepted regardless.
    warnings: r.warnings ?? [],
    excludedTerritories: r.excludedTerritories ?? [],
    preOrderDate: r.preOrderDate || null,
    releaseTimeZone: r.releaseTimeZone || null,
    featuredArtists: r.featuredArtists.map((a) => ({ name: a.name, role: a.role })),
    language: r.language || null,
    delivery,
    createdAt: r.createdAt,
  };
}
