// The automatic store checks (shared/design/delivery.md, "What stores refuse"): pure functions of the
// catalog release and storage's facts about its cover, each answering findings that name the stores
// concerned and tell the artist what to fix.
import type { catalog } from '@omni/proto';
import type { ReviewFinding } from '@omni/proto/api';

export interface CoverFacts {
  width: number;
  height: number;
  colorMode: string;
  format: string;
}

export interface CheckInput {
  release: catalog.Release;
  /** The release's chosen stores (platform keys). */
  stores: readonly string[];
  /** null: no cover, or storage no longer has it. */
  cover: CoverFacts | null;
}

export function runStoreChecks(_input: CheckInput): ReviewFinding[] {
  return [];
}
