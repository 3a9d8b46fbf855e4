import { ANNUAL_SAVING_TEXT, formatPrice, PLANS } from '@omni/proto/api';
import { MINIMUM_PAYOUT, PAYOUT_CYCLE_DAYS, STORE_COUNT, usd } from './facts';

export type BillingPeriod = 'monthly' | 'annual';

/** What the Pro card shows for each period: the contract's plans, as checkout will charge them. */
export const PRO_PRICE: Record<BillingPeriod, { amount: string; per: string; note?: string }> = {
  monthly: { amount: formatPrice(PLANS.pro_monthly.amount), per: 'per month' },
  annual: { amount: formatPrice(PLANS.pro_annual.amount), per: 'per year', note: ANNUAL_SAVING_TEXT },
};

export const FREE_FEATURES = [
  `Delivery to ${STORE_COUNT} stores`,
  '100% of your royalties',
  'Catalog management for singles, EPs and albums',
  'Free ISRC and UPC codes',
] as const;

export const PRO_FEATURES = [
  'Everything in Free',
  'Streaming analytics across every store',
  'Smart splits and automated payouts',
  'Collaborator invitations with roles',
  'AI-written marketing copy for your releases',
] as const;

export const ENTERPRISE_FEATURES = [
  'Everything in Pro',
  'Sub-labels and roll-up analytics',
  'Approvals, dual sign-off and takedowns',
  'Custom terms and a Data Processing Agreement',
] as const;

export const REVENUE_STREAMS = ['Streaming', 'Video', 'Publishing', 'Sync', 'Physical'] as const;

export const FAQ = [
  {
    question: 'Who owns the music I distribute?',
    answer:
      'You do. You keep every right to your recordings and compositions; distributing with Omni only lets us deliver your releases to the stores you choose. Take a release down whenever you like.',
  },
  {
    question: 'When do I get paid?',
    answer: `Once your balance reaches ${usd(MINIMUM_PAYOUT)}, we pay it out on our ${PAYOUT_CYCLE_DAYS}-day cycle. A smaller balance simply carries over to the next cycle.`,
  },
  {
    question: 'Can I pay collaborators who don’t have an Omni account?',
    answer:
      'Yes. Add them to a release’s split with their email address; they are invited to create a free account to collect their share, and their earnings wait for them until they do.',
  },
  {
    question: 'How are rates calculated?',
    answer:
      'Each store pays per stream, view or sale at its own rate, which varies by country and subscription type. We pass on 100% of what the stores report for your music, in every revenue stream, with no commission taken.',
  },
] as const;
