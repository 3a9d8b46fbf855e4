import { ANNUAL_SAVING_TEXT, formatPrice, PLANS } from '@omni/proto/api';
import { MINIMUM_PAYOUT, PAYOUT_CYCLE_DAYS, STORE_COUNT, usd } from './facts';

export type BillingPeriod = 'monthly' | 'annual';

/** What the Pro card shows for each period: the contract's plans, as checkout will charge them. */
export const PRO_PRICE: Record<BillingPeriod, { amount: string; per: string; note?: string }> = {
  monthly: { amount: formatPrice(PLANS.pro_monthly.amount), per: 'per month' },
  annual: { amount: formatPrice(PLANS.pro_annual.amount), per: 'per year', note: ANNUAL_SAVING_TEXT },
};

/** A plan's line: what it includes, and whether that has shipped. */
export interface PlanFeature {
  text: string;
  /** Not built yet: the card marks it 'Coming soon' instead of selling it as included. */
  comingSoon?: boolean;
}

export const FREE_FEATURES: readonly PlanFeature[] = [
  { text: `Delivery to ${STORE_COUNT} stores` },
  { text: '100% of your royalties' },
  { text: 'Catalog management for singles, EPs and albums' },
  { text: 'Free ISRC and UPC codes' },
  // Live for every account: /app/analytics (earnings from store statements, estimated daily streams).
  { text: 'Streaming and earnings analytics by store, territory and month' },
  // Live for every account (issue 26): /release/:id?tab=splits, /app/splits, /app/earnings, /app/payouts.
  { text: 'Splits with collaborators, recoupment and payouts every 30 days' },
];

/**
 * Pro's lines. Collaborator roles and AI copy are later issues (issue 21 §3.13): until each ships it is
 * marked 'Coming soon', and the card says in plain words that Pro adds nothing to Free today, so nobody
 * pays for a promise believing it is a feature. Analytics, splits and payouts shipped for every account,
 * so they are Free lines, not Pro ones.
 */
export const PRO_FEATURES: readonly PlanFeature[] = [
  { text: 'Everything in Free' },
  { text: 'Roles for your collaborators', comingSoon: true },
  { text: 'AI-written marketing copy for your releases', comingSoon: true },
];

/** What Pro adds to Free today, said on the card beside the price. */
export const PRO_TODAY =
  'Today Pro includes everything in Free and nothing more yet. The features marked Coming soon join your plan at no extra cost as they ship; cancel any time.';

export const ENTERPRISE_FEATURES: readonly PlanFeature[] = [
  { text: 'Everything in Pro' },
  { text: 'Sub-labels and roll-up analytics', comingSoon: true },
  { text: 'Takedowns from any store' },
  { text: 'Approvals and dual sign-off', comingSoon: true },
  { text: 'Custom terms and a Data Processing Agreement' },
];

export const REVENUE_STREAMS = ['Streaming', 'Video', 'Publishing', 'Sync', 'Physical'] as const;

export const FAQ = [
  {
    question: 'Who owns the music I distribute?',
    answer:
      'You do. You keep every right to your recordings and compositions; distributing with Omni only lets us deliver your releases to the stores you choose. Take a release down whenever you like.',
  },
  {
    question: 'When do I get paid?',
    // Payouts shipped (issue 26): /app/payouts shows the same rules and what stands between a payee and a payout.
    answer: `Every ${PAYOUT_CYCLE_DAYS} days, once your balance reaches ${usd(MINIMUM_PAYOUT)} (or a lower minimum you choose, down to $1): a smaller balance simply carries over to the next cycle. Before your first payout, give your tax form and set up your payout account on the Payouts page, which also says why a payout has not happened yet. A payout the bank returns goes back to your balance and is tried again over the next 7 days.`,
  },
  {
    question: 'Can I pay collaborators who don’t have an Omni account?',
    answer:
      'Yes. Add them to a release’s split with their email address: they get an invitation to accept with any Omni account, new or existing, and their share is held for them — visible to you and to them — until they do. If an invitation lapses, you are told and you choose what happens to the share.',
  },
  {
    question: 'How are rates calculated?',
    answer:
      'Each store pays per stream, view or sale at its own rate, which varies by country and subscription type. We pass on 100% of what the stores report for your music, in every revenue stream, with no commission taken.',
  },
] as const;
