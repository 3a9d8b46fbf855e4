import { FINDER_MESSAGES } from '@omni/proto/api';
import { serverMessage } from '@omni/ui';
import { ScanRefused } from './finder-api';

/**
 * The description under 'Scan Failed' (spec §8). ok: false: its message (or 'Scan failed'). A refusal in
 * the server's own words ('Scanning needs an active Missing Money Finder subscription...'): those words.
 * Anything else (an unexplained 500, a 502 without a body, an answer of the wrong shape): 'Scan service
 * is temporarily unavailable. Please try again.', never a bare "Request failed (500)".
 */
export function scanFailure(error: unknown): string {
  if (error instanceof ScanRefused) return error.message;
  return serverMessage(error) ?? FINDER_MESSAGES.scanUnavailable;
}
