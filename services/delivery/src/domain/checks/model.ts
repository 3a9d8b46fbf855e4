// What the automatic store checks read besides the catalog release: storage's facts about the cover.
import type { catalog } from '@omni/proto';

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
