// What the packaging step knows besides the catalog release: the staged copy of each file (hashes computed
// while it was fetched) and what storage measured about the cover.

export interface StagedFile {
  bucket: string;
  fileKey: string;
  /** Absolute path of the staged copy (content-addressed: DATA_DIR/delivery/staging/<sha256>). */
  path: string;
  sha256: string;
  md5: string;
  size: number;
  /** Set on a master transcoded for the store (`flac`, `wav`); otherwise the track's own format. */
  format?: string;
}

export interface CoverFacts {
  format: string;
  width: number;
  height: number;
}

export interface PackageFiles {
  /** By track id. */
  audio: Map<string, StagedFile>;
  cover: StagedFile;
  coverFacts: CoverFacts;
}
