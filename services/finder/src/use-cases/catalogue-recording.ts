// Catalog's CatalogueTrack (one track with its release) as the scanner reads it.
import type { catalog } from '@omni/proto';
import type { CatalogueRecording } from '../domain/scan-model';

export function toRecording({ release, track }: catalog.CatalogueTrack): CatalogueRecording | null {
  if (!release || !track) return null;
  const credits = release.metadata?.credits;
  const legal = release.metadata?.legal;
  return {
    releaseId: release.id,
    releaseTitle: release.title,
    releaseType: release.releaseType,
    releaseDate: release.releaseDate,
    upc: release.upc,
    label: release.label,
    mainArtist: release.artist?.name ?? '',
    trackId: track.id,
    trackNumber: track.trackNumber,
    title: track.title,
    isrc: track.isrc,
    durationSeconds: track.durationSeconds,
    credits: {
      producers: credits?.producers ?? [],
      writers: credits?.writers ?? [],
      musicians: credits?.musicians ?? [],
      engineer: credits?.engineer ?? '',
      instruments: credits?.instruments ?? '',
    },
    legal: {
      copyrightLine: legal?.copyrightLine ?? '',
      publishingLine: legal?.publishingLine ?? '',
      pro: legal?.pro ?? '',
      ipi: legal?.ipi ?? '',
      iswc: legal?.iswc ?? '',
      isni: legal?.isni ?? '',
    },
  };
}
