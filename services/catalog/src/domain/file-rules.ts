// Whether a release may use a file. Storage judges the bytes against the stores' rules (its
// domain/store-rules.ts, the one place they are written), asked for the role the file plays here; catalog
// adds only what needs the release: whose file it is, and the release-level rules below.
import type { storage } from '@omni/proto';
import { appleTypeWarning } from '@omni/proto/api';
import { PLATFORMS } from './platforms';
import type { ReleaseType } from './release';

export type FileRole = 'audio' | 'artwork';

/** What catalog needs to know about an uploaded file (storage answers it; grpc/storage-files.ts). */
export interface FileInfo {
  exists: boolean;
  ownerId: string;
  publicUrl: string;
  inspection: storage.Inspection | undefined;
}

/** Where file facts come from, behind a small interface so the release rules do not depend on gRPC. */
export interface FileChecker {
  /** Storage judges the file for `role` (the stores' rules for a master or a cover). */
  info(ownerId: string, bucket: string, fileKey: string, role: FileRole): Promise<FileInfo>;
  /** Storage removes the owner's file (one a refused submission brought and nothing uses). */
  discard(ownerId: string, bucket: string, fileKey: string): Promise<void>;
}

/** The first thing wrong with the file for its role, as a message a person can act on; undefined if fine. */
export function fileProblem(role: FileRole, info: FileInfo, callerId: string): string | undefined {
  // A file of someone else is reported exactly like a missing one: it does not reveal that it exists.
  if (!info.exists || info.ownerId !== callerId) {
    return role === 'audio'
      ? 'We could not find the uploaded audio file. Please upload it again.'
      : 'We could not find the uploaded artwork. Please upload it again.';
  }
  const inspection = info.inspection;
  if (!inspection) return `The ${role} file has not been inspected yet. Please upload it again.`;
  return inspection.problems[0];
}

/** A single this short is refused by some stores (distributor guidance: "single-track releases under 30 s"; docs/architecture.md, "What stores refuse"). */
export const SHORT_SINGLE_SECONDS = 30;

/**
 * Stores that refuse a single-track release under 30 s. Distributor guidance says "some" without naming
 * them; these are the download and streaming stores it is most often reported for. Confirm against each
 * store's current partner guide and correct here (docs/architecture.md §6).
 */
const SHORT_SINGLE_REFUSED_BY = ['apple_music', 'amazon_music'];

/** What some stores refuse about the release as a whole; each names those stores. */
export function releaseWarnings(trackSeconds: number[], releaseType: ReleaseType = 'single'): string[] {
  const out: string[] = [];
  const [only, ...more] = trackSeconds;
  if (more.length === 0 && only !== undefined && only < SHORT_SINGLE_SECONDS) {
    const names = SHORT_SINGLE_REFUSED_BY.map((key) => PLATFORMS.find((p) => p.key === key)?.name ?? key);
    out.push(
      `This single is ${Math.round(only)} s long. Some stores refuse single-track releases under ${SHORT_SINGLE_SECONDS} s (${names.join(', ')}); a longer track reaches every store.`,
    );
  }
  const apple = appleTypeWarning(trackSeconds, releaseType);
  if (apple) out.push(apple);
  return out;
}
