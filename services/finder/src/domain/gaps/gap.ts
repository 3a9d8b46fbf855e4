// One metadata gap on one recording: what the artist reads, the evidence, what to do and where, and which
// societies' money it holds back (and which share of it, for the value estimate).
import type { RegistryId } from '../../providers/registries/port';

/** The parts of a society's money for one play: SoundExchange by statute, PPL roughly owner/performers. */
export type ShareComponent = 'owner' | 'featured' | 'non_featured' | 'performers' | 'publishing';

export type Blocks = Partial<Record<RegistryId, ShareComponent[]>>;

export type GapCode =
  | 'isrc_missing'
  | 'isrc_malformed'
  | 'upc_missing'
  | 'upc_malformed'
  | 'iswc_malformed'
  | 'ipi_malformed'
  | 'isni_malformed'
  | 'isrc_on_two_recordings'
  | 'recording_under_two_isrcs'
  | 'no_line_up'
  | 'musicians_without_role'
  | 'featured_not_credited'
  | 'performer_missing_from_other_release'
  | 'p_line_missing'
  | 'p_line_incomplete'
  | 'no_writers'
  | 'writers_without_ipi'
  | 'writers_without_shares'
  | 'iswc_missing';

export interface Gap {
  code: GapCode;
  /** The line shown under metadata_gaps. */
  text: string;
  evidence: string;
  /** Says where the artist fixes it (the release page and its tab). */
  action: string;
  blocks: Blocks;
}

/** Where every fix is made: the release's page in the dashboard, with the form's tab names. */
export const onReleasePage = (releaseTitle: string, tab: string, what: string): string =>
  `On the release page of "${releaseTitle}" (${tab} tab), ${what}`;
