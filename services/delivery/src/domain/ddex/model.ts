// The plain input the DDEX ERN 4.3 builders take: what the catalog and storage know about a release, in our
// words, with no DDEX references in it. The builders assign references (P…, A…, T…, R…) themselves so they
// are always consistent; callers never write XML-shaped data.
import type { ErnCommercialModel, ErnUseType } from '../../providers/stores/profile';

export type { ErnCommercialModel, ErnUseType };

/** A DDEX party: its DPID (`PADPIDA…`) and its name. */
export interface ErnMessagingParty {
  partyId: string;
  name: string;
}

export interface ErnMessageHeader {
  /** Unique per message; a resend of the same release gets a new one. */
  messageId: string;
  /** Groups the messages of one delivery (optional in the standard). */
  threadId?: string;
  sender: ErnMessagingParty;
  recipient: ErnMessagingParty;
  /** ISO 8601 date-time with its offset, e.g. `2026-11-24T01:30:00Z`. */
  createdAt: string;
  /** Defaults to `LiveMessage`. */
  control?: 'LiveMessage' | 'TestMessage';
}

export type ErnArtistRole = 'MainArtist' | 'FeaturedArtist';

export interface ErnArtist {
  name: string;
  role: ErnArtistRole;
}

/** The DDEX contributor roles our metadata form can express (AVS ContributorRole values). */
export type ErnContributorRole =
  | 'Composer'
  | 'Lyricist'
  | 'ComposerLyricist'
  | 'Arranger'
  | 'StudioProducer'
  | 'Remixer'
  | 'MixingEngineer'
  | 'MasteringEngineer'
  | 'Engineer'
  | 'Performer';

export interface ErnContributor {
  name: string;
  roles: ErnContributorRole[];
}

/** A ℗ or © line: the year and the text as printed (e.g. `2026 Night Owl Records`). */
export interface ErnRightsLine {
  year: number;
  text: string;
}

/** AVS HashSumAlgorithmType values we produce. */
export type ErnHashAlgorithm = 'MD5' | 'SHA-256';

export interface ErnFile {
  /** The file's name as delivered (relative to the release folder, e.g. `resources/…flac`). */
  uri: string;
  hash: { algorithm: ErnHashAlgorithm; value: string };
  sizeBytes?: number;
}

export type ErnAudioCodec = 'FLAC' | 'PCM' | 'MP3' | 'AAC';

export interface ErnAudioFile {
  file: ErnFile;
  codec: ErnAudioCodec;
  /** Known for lossy files; omitted for lossless. */
  bitRateKbps?: number;
  sampleRateHz?: number;
  bitsPerSample?: number;
  channels?: number;
}

export interface ErnSoundRecording {
  isrc: string;
  title: string;
  artists: ErnArtist[];
  contributors: ErnContributor[];
  /** ISO 639-1 of the performance (LanguageOfPerformance); absent: not said. */
  language?: string;
  durationSeconds: number;
  pLine: ErnRightsLine;
  explicit: boolean;
  audio: ErnAudioFile;
  /** 1 unless the release has more than one disc (then a nested ResourceGroup per disc). */
  discNumber?: number;
}

export interface ErnCoverImage {
  /** Our id for the image (DDEX wants a ProprietaryId with a namespace for images). */
  proprietaryId: string;
  codec: 'JPEG' | 'PNG';
  widthPx: number;
  heightPx: number;
  file: ErnFile;
}

export type ErnReleaseType = 'Single' | 'EP' | 'Album';

export interface ErnRelease {
  /** The UPC, sent as the ICPN. */
  upc: string;
  type: ErnReleaseType;
  title: string;
  artists: ErnArtist[];
  label: string;
  genre: string;
  pLine: ErnRightsLine;
  cLine: ErnRightsLine;
  /** `YYYY-MM-DD`. */
  releaseDate: string;
  /** Explicit when the release or any of its recordings is. */
  explicit: boolean;
  /** In play order. */
  recordings: ErnSoundRecording[];
  cover: ErnCoverImage;
  /** ISO 639-1 of the release's texts (the Release's LanguageAndScriptCode); absent: not said. */
  language?: string;
  /** The release's visibility (ReleaseVisibility) when it is shown before its deal starts (a pre-order). */
  visibility?: ErnVisibility;
}

/** When a store may show the release, its cover and its track list (each an xs:dateTime). */
export interface ErnVisibility {
  /** `V…`, referenced by the release. */
  reference: string;
  from: string;
}

/** One deal for the recipient store. */
export interface ErnDeal {
  /** `Worldwide` or ISO 3166-1 alpha-2 codes. */
  territories: string[];
  /** With `Worldwide`: the countries left out (ERN 4.3 then lists only ExcludedTerritoryCode). */
  excludedTerritories?: string[];
  commercialModels: ErnCommercialModel[];
  useTypes: ErnUseType[];
  /** `YYYY-MM-DD`: from 00:00 local time in each country. */
  startDate?: string;
  endDate?: string;
  /** xs:dateTime with an offset: from that instant everywhere (a release time zone); instead of startDate. */
  startDateTime?: string;
  endDateTime?: string;
  /** A pre-order deal (IsPreOrderDeal). */
  preOrder?: boolean;
}

export interface ErnNewReleaseInput {
  header: ErnMessageHeader;
  release: ErnRelease;
  deals: ErnDeal[];
  /** Namespace of our proprietary ids; defaults to `DPID:<sender>`, the form DDEX recommends. */
  proprietaryIdNamespace?: string;
}

/** A takedown is the same release with no deals (ERN 4.3 has no takedown message). */
export type ErnTakedownInput = Omit<ErnNewReleaseInput, 'deals'>;

export interface ErnPurgeInput {
  header: ErnMessageHeader;
  upc: string;
  title: string;
}
