// How a simulated store answers the next batches (POST /api/admin/store-simulator/:store): accept (check
// and ingest), reject (ProcessingError, ManualCheckRequired=true: a person must look) or fail
// (ProcessingError, ManualCheckRequired=false: resend). `times` counts the batches left (0 = until told
// otherwise); it counts only batches whose files were good, since a corrupt batch gets the real verdict.
import type { SimulatorMode } from '@omni/proto/api';

export interface SimulatorBehaviour {
  mode: SimulatorMode;
  times: number;
  reason: string;
  /** Overrides the simulator's delay for this store. */
  delayMs?: number;
}

export const ACCEPT: SimulatorBehaviour = { mode: 'accept', times: 0, reason: '' };

/** Realistic store words when none are configured. */
export const DEFAULT_REASONS: Record<Exclude<SimulatorMode, 'accept'>, string> = {
  reject:
    'Release rejected by content review: the cover art does not match the release title and artist. Correct the metadata or artwork and redeliver.',
  fail: 'Temporary ingestion error at the store: the release could not be processed. Please redeliver.',
};

/** The behaviour after one batch used it. */
export function afterBatch(current: SimulatorBehaviour): SimulatorBehaviour {
  if (current.mode === 'accept' || current.times === 0) return current;
  if (current.times > 1) return { ...current, times: current.times - 1 };
  return { ...ACCEPT, ...(current.delayMs !== undefined ? { delayMs: current.delayMs } : {}) };
}
