// What a scan reads and what it is given: one recording with its release's metadata (from catalog's
// ListCatalogueTracks), the registries it can ask, and the plays it knows. The scanner takes recordings one
// at a time (a 10,000-track catalogue never sits in memory at once) and gives the spec's result at the end.
import type { FinderResult } from '@omni/proto/api';

/** One recording as catalog holds it, with its release's fields (credits and legal lines are per release). */
export interface CatalogueRecording {
  releaseId: string;
  releaseTitle: string;
  releaseType: string;
  releaseDate: string;
  upc: string;
  label: string;
  mainArtist: string;
  trackId: string;
  trackNumber: number;
  title: string;
  isrc: string;
  durationSeconds: number;
  credits: {
    producers: string[];
    writers: string[];
    musicians: string[];
    engineer: string;
    instruments: string;
  };
  legal: {
    copyrightLine: string;
    publishingLine: string;
    pro: string;
    ipi: string;
    iswc: string;
    isni: string;
  };
}

/** Plays the platform or the artist knows for one recording (by ISRC), per territory and year. */
export interface PlayCount {
  isrc: string;
  territory: string;
  plays: number;
  /** Calendar year of the plays; unknown = assumed within the claimable window. */
  year?: number;
  /** 'non_subscription' | 'subscription' webcasting (the rate differs). */
  serviceType?: 'non_subscription' | 'subscription';
}

/** Streams recordings in, one at a time; `finish` gives the result (spec §3 shape). */
export interface Scanner {
  add(recording: CatalogueRecording): void | Promise<void>;
  finish(): FinderResult | Promise<FinderResult>;
}
