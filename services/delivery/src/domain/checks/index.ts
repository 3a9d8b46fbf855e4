// The automatic store checks (shared/design/delivery.md, "What stores refuse"): pure functions of the
// catalog release and storage's facts about its cover. Each finding names its rule, whether the stores
// concerned refuse it (error) or may (warning), those stores (none = every store), and what to fix.
import type { ReviewFinding } from '@omni/proto/api';
import { artworkFindings } from './artwork';
import { audioFindings } from './audio';
import { metadataFindings } from './metadata';
import type { CheckInput } from './model';

export type { CheckInput, CoverFacts } from './model';

export function runStoreChecks({ release, stores, cover }: CheckInput): ReviewFinding[] {
  return [
    ...audioFindings(release.tracks, stores),
    ...artworkFindings(cover),
    ...metadataFindings(release, stores),
  ];
}
