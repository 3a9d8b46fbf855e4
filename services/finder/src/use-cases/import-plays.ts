// ImportPlays: the play-count CSV an artist supplies for the estimates (rules in domain/plays/read-csv.ts).
// Only a Finder subscriber may import (asked of billing, as a scan does). A file of up to 5 MB is read a
// slice of records at a time, letting the event loop run between slices: under `npm start` every service
// shares this loop, and reading 285,000 rows at once held every other request for two seconds. A good
// file replaces the account's previous import; a bad one changes nothing.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fail, invalidArgument, type PromiseClient } from '@omni/platform';
import { billing } from '@omni/proto';
import { FINDER_MESSAGES, type ImportPlaysResponse } from '@omni/proto/api';
import { PlaysCsvReader } from '../domain/plays/read-csv';
import type { PlaysRepository } from '../store/plays';

/** Records read per turn of the event loop: about 2 ms of work each on a loaded 2-core machine. */
export const RECORDS_PER_TURN = 2000;

export interface ImportPlaysDeps {
  plays: PlaysRepository;
  billing: PromiseClient<typeof billing.BillingServiceService>;
}

export async function importPlays(
  deps: ImportPlaysDeps,
  accountId: string,
  csv: Buffer,
): Promise<ImportPlaysResponse> {
  const subscription = await deps.billing.getSubscription({
    accountId,
    product: billing.Product.PRODUCT_FINDER,
  });
  if (!subscription.subscribed) throw fail('subscription_required', FINDER_MESSAGES.playsNeedSubscription);
  const reader = new PlaysCsvReader(csv.toString('utf8'));
  while (reader.read(RECORDS_PER_TURN)) await nextTurn();
  const outcome = reader.outcome();
  if (!outcome.ok) throw invalidArgument(outcome.message);
  await deps.plays.replace(accountId, outcome.rows);
  return { rows: outcome.rows.length, recordings: outcome.recordings };
}
