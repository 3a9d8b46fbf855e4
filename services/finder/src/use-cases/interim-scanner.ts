// Until the Finder's rules land (services/finder/src/domain, issue #13 F1), a scanner that reads every
// recording and flags nothing, so the job, paging, progress, outbox and export paths run end to end.
// Replaced by the domain's createScanner in index.ts; delete this file then.
import { FINDER_MESSAGES, type FinderResult } from '@omni/proto/api';
import type { Scanner } from '../domain/scan-model';

export function interimScanner(): Scanner {
  let scanned = 0;
  return {
    add() {
      scanned++;
    },
    finish(): FinderResult {
      return {
        scanned,
        flagged: 0,
        estimated_value_at_risk_usd: 0,
        disclaimer: FINDER_MESSAGES.disclaimer,
        findings: [],
        checked_against: [],
      };
    },
  };
}
