// The help centre's documents. Every number comes from ./facts so the docs state what Omni keeps.
import {
  ARTWORK_SIZE,
  KYC_WINDOW,
  MINIMUM_PAYOUT,
  PAYMENT_RETRY_DAYS,
  PAYOUT_CYCLE_DAYS,
  PRESELECTED_STORE_COUNT,
  PRO_ANNUAL_PRICE,
  PRO_ANNUAL_SAVING,
  PRO_MONTHLY_PRICE,
  REVIEW_WINDOW,
  STORE_COUNT,
  SUPPORT_REPLY,
  UPTIME_TARGET,
  usd,
} from './facts';

export const SUPPORT_CATEGORIES = [
  { id: 'account', label: 'Account', blurb: 'Sign-in, email verification and your profile.' },
  { id: 'distribution', label: 'Distribution', blurb: 'Uploading releases, stores and review times.' },
  { id: 'royalties', label: 'Royalties', blurb: 'Earnings, splits and payouts.' },
  { id: 'compliance', label: 'Compliance', blurb: 'Identity checks, rights and data protection.' },
  { id: 'billing', label: 'Billing', blurb: 'Plans, invoices and failed payments.' },
] as const;

export type SupportCategoryId = (typeof SUPPORT_CATEGORIES)[number]['id'];

export const isSupportCategory = (value: string | undefined): value is SupportCategoryId =>
  SUPPORT_CATEGORIES.some((category) => category.id === value);

export interface SupportDoc {
  id: string;
  category: SupportCategoryId;
  title: string;
  summary: string;
  body: readonly string[];
  /**
   * What the article describes has not shipped (issue 21 §3.13): this plain sentence opens the article and a
   * 'Coming soon' mark shows in the list, so nobody relies on a payout, a split or a mail that does not exist.
   */
  comingSoon?: string;
}

export const SUPPORT_DOCS: readonly SupportDoc[] = [
  {
    id: 'create-account',
    category: 'account',
    title: 'Creating your account and signing in',
    summary: 'Email and password, Google, or a one-time email link.',
    body: [
      'Create an account from the Sign Up page with your email address and a password of at least 6 characters, or continue with your Google account.',
      'We send a verification email when you sign up with a password. Open the link in it before your first sign-in; if it did not arrive, try signing in and choose “Resend verification email” when it is offered.',
      'Prefer not to type a password? Ask for a one-time sign-in link and open it on the same device.',
    ],
  },
  {
    id: 'reset-password',
    category: 'account',
    title: 'Resetting a forgotten password',
    summary: 'Get back into your account in a couple of minutes.',
    body: [
      'Choose “Forgot password?” on the Sign In page and enter the email address you signed up with. We email you a link to choose a new password.',
      'If the email does not arrive within a few minutes, check your spam folder, then ask for a new link from the same page.',
      'Still stuck? Open a ticket below with the email address of the account and we will help you within 1 business day.',
    ],
  },
  {
    id: 'upload-release',
    category: 'distribution',
    title: 'Uploading a release',
    summary: 'Audio, cover artwork and metadata, then pick your stores.',
    body: [
      `From your dashboard choose Upload Release. Add the artist name, release title and track title, your audio file and cover artwork (${ARTWORK_SIZE}, JPG or PNG).`,
      'Omni assigns an ISRC to each track and a UPC to each release when you do not have your own.',
      `Choose where the release goes: we deliver to ${STORE_COUNT} stores and preselect the ${PRESELECTED_STORE_COUNT} most popular. If you clear every choice, the release goes to all of them.`,
    ],
  },
  {
    id: 'review-times',
    category: 'distribution',
    title: 'How long review and delivery take',
    summary: `Most releases are reviewed within ${REVIEW_WINDOW}.`,
    body: [
      `Every release is checked before it is delivered. Review usually takes ${REVIEW_WINDOW}.`,
      'After review, each store processes the delivery on its own schedule, so a release can appear in some stores before others. Plan a release date a few weeks out if timing matters.',
      'If something needs fixing, we tell you what and why, so you can correct it and resubmit.',
    ],
  },
  {
    id: 'payouts',
    category: 'royalties',
    title: 'When and how you get paid',
    summary: `Payouts every ${PAYOUT_CYCLE_DAYS} days once you reach ${usd(MINIMUM_PAYOUT)}.`,
    comingSoon:
      'Coming soon: Omni does not pay out yet. Your earnings from the stores’ statements already show on your dashboard and in Analytics; this article describes how payouts will work.',
    body: [
      'You keep 100% of the royalties stores report for your music.',
      `Earnings are paid on a ${PAYOUT_CYCLE_DAYS}-day cycle once your balance reaches the ${usd(MINIMUM_PAYOUT)} minimum. A smaller balance carries over to the next cycle; nothing is lost.`,
      'Stores report earnings after the month they happen in, so new releases usually show their first earnings a month or two after going live.',
    ],
  },
  {
    id: 'splits',
    category: 'royalties',
    title: 'Sharing earnings with collaborators',
    summary: 'Split a release’s earnings between the people who made it.',
    comingSoon:
      'Coming soon: splits, split payouts and recoupment are not available yet, and collaborators cannot be invited yet. This article describes how they will work.',
    body: [
      'Splits divide a release’s earnings between collaborators by percentage. Each collaborator is paid their share directly.',
      'Collaborators do not need an Omni account to be added to a split; they create one to receive their payout.',
      'Costs you choose to recoup, such as a producer fee, can be recovered before the split is applied.',
    ],
  },
  {
    id: 'identity-check',
    category: 'compliance',
    title: 'Identity verification (KYC)',
    summary: `Checks usually complete in ${KYC_WINDOW}.`,
    comingSoon:
      'Coming soon: identity checks start with payouts, which are not available yet. Nobody is asked for an ID today, and no KYC emails are sent yet.',
    body: [
      'Before your first payout we verify your identity, as payment regulations require.',
      `Have a government-issued ID ready. Verification usually completes in ${KYC_WINDOW}; we email you when it is done or if we need anything else.`,
    ],
  },
  {
    id: 'rights-data',
    category: 'compliance',
    title: 'Rights, takedowns and your data',
    summary: 'You own your music; we handle data under a DPA on request.',
    body: [
      'You keep full ownership of your recordings and compositions. Distributing with Omni grants us only the rights needed to deliver your music to the stores you choose.',
      'Want a release taken down from stores? Open it from Releases in your dashboard and choose Take down: we send the takedown to the stores you pick.',
      'Businesses can request our Data Processing Agreement from the Trust page.',
    ],
  },
  {
    id: 'plans',
    category: 'billing',
    title: 'Plans and prices',
    summary: `Free, Pro at ${usd(PRO_MONTHLY_PRICE)} a month, or Enterprise.`,
    body: [
      `Free costs nothing. Pro is ${usd(PRO_MONTHLY_PRICE)} per month, or ${usd(PRO_ANNUAL_PRICE)} per year — you save ${usd(PRO_ANNUAL_SAVING)} compared with paying monthly.`,
      'Enterprise plans for labels and distributors are priced with our sales team.',
      'Every plan pays you 100% of your royalties.',
    ],
  },
  {
    id: 'failed-payments',
    category: 'billing',
    title: 'Failed payments',
    summary: `We retry a failed payment over ${PAYMENT_RETRY_DAYS} days.`,
    body: [
      `If a subscription payment fails, we retry it automatically over the next ${PAYMENT_RETRY_DAYS} days and email you so you can update your card.`,
      'Your releases stay live while we retry.',
      `Questions about an invoice? Open a ticket and we reply within ${SUPPORT_REPLY}. Omni targets ${UPTIME_TARGET} uptime, so billing and your dashboard are there when you need them.`,
    ],
  },
];

export const docsOf = (category: SupportCategoryId) =>
  SUPPORT_DOCS.filter((doc) => doc.category === category);

/** Documents whose title, summary or text contain every word of the query (case-insensitive). */
export function searchDocs(query: string): readonly SupportDoc[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return SUPPORT_DOCS;
  return SUPPORT_DOCS.filter((doc) => {
    const text = `${doc.title} ${doc.summary} ${doc.body.join(' ')}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
