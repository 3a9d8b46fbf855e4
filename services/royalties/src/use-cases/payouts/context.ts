// What the payout use cases share: their dependencies, the payee's parties and balance.
import type { DocumentStore, Logger } from '@omni/platform';
import { formatAmount } from '../../domain/money';
import { type AccountStatus } from '../../domain/payouts/checklist';
import type { AccountFacts, PayoutsProvider } from '../../providers/payouts/port';
import type { PayeeMonthDoc, PayeesRepository } from '../../store/payees';
import type { PayoutPayeeDoc, PayoutsRepository } from '../../store/payouts';
import type { SplitsRepository } from '../../store/splits';

export interface PayoutDeps {
  documents: DocumentStore;
  payouts: PayoutsRepository;
  payees: PayeesRepository;
  splits: SplitsRepository;
  provider: PayoutsProvider;
  /** What browsers see (onboarding's return address). */
  publicUrl: string;
  /** Whether events must be live-mode ones (a live Stripe key); the sandbox's are test events. */
  livemode: boolean;
  logger: Logger;
  now?: () => Date;
}

export interface PayoutCaller {
  userId: string;
  email: string;
  isAdmin: boolean;
}

export const nowOf = (deps: PayoutDeps) => (deps.now ? deps.now() : new Date());
export const usd = (nano: bigint) => formatAmount(nano);

/** The parties whose money is the payee's: their own, and the invitations bound to them. */
export async function partiesOf(
  deps: PayoutDeps,
  userIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map(userIds.map((id) => [id, [`user:${id}`]]));
  if (userIds.length === 0) return out;
  for (const inv of await deps.splits.invitations.find({ boundTo: { $in: [...userIds] } }))
    out.get(inv.boundTo!)?.push(`inv:${inv._id}`);
  return out;
}

/** What the allocator gave each payee (nano), all time. */
export async function earnedOf(
  deps: PayoutDeps,
  parties: Map<string, string[]>,
): Promise<Map<string, bigint>> {
  const owner = new Map<string, string>();
  for (const [user, list] of parties) for (const p of list) owner.set(p, user);
  const out = new Map<string, bigint>([...parties.keys()].map((u) => [u, 0n]));
  const rows: PayeeMonthDoc[] = await deps.payees.monthsOfParties([...owner.keys()]);
  for (const r of rows) {
    const user = owner.get(r.party)!;
    out.set(user, out.get(user)! + BigInt(r.split) + BigInt(r.recoup));
  }
  return out;
}

/** The payee's balance: earned minus what payouts hold (on its way or paid). */
export const balanceOf = (earned: bigint, payee: PayoutPayeeDoc | null) =>
  earned - BigInt(payee?.outNano ?? '0');

/** The rail's account facts as the checklist reads them. */
export function accountStatusOf(facts: AccountFacts, before: AccountStatus | undefined): AccountStatus {
  if (facts.payoutsEnabled && facts.currentlyDue.length === 0) return 'verified';
  if (facts.currentlyDue.length === 0 && facts.pendingVerification.length > 0) return 'pending_verification';
  if (before === 'verified' || facts.disabledReason.startsWith('rejected')) return 'restricted';
  return 'incomplete';
}
