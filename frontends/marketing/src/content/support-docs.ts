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
    body: [
      'You keep 100% of the royalties stores report for your music.',
      `Earnings are paid on a ${PAYOUT_CYCLE_DAYS}-day cycle once your balance reaches the ${usd(MINIMUM_PAYOUT)} minimum, or a lower one you choose on the Payouts page (down to $1). A smaller balance carries over to the next cycle; nothing is lost.`,
      'Before your first payout, give your tax form (W-9, or W-8BEN outside the US) and set up your payout account on the Payouts page. The page lists what still stands between you and a payout, and the date of the next run. A payout the bank returns goes back to your balance, with the reason, and is tried again over the next 7 days.',
      'Each month has a statement on the Payouts page: opening balance, income by store, territory and month, recoupment, transfers and closing balance, as CSV or PDF.',
      'Stores report earnings after the month they happen in, so new releases usually show their first earnings a month or two after going live.',
    ],
  },
  {
    id: 'splits',
    category: 'royalties',
    title: 'Sharing earnings with collaborators',
    summary: 'Split a release’s earnings between the people who made it.',
    body: [
      'Splits divide a release’s earnings between collaborators by percentage, per track or for the whole release, from the Splits tab of the release. A change applies from the date you choose, never to money already earned. Each collaborator is paid their share directly.',
      'Collaborators do not need an Omni account to be added to a split: they get an invitation by email and accept it with any account, new or existing. Their share is held for them until they do, and both of you see it. If an invitation lapses, you are told and choose what happens to the share.',
      'Costs you choose to recoup, such as a producer fee or an advance, are repaid from the release’s earnings before the split is applied; every collaborator sees the recoup ledger.',
    ],
  },
  {
    id: 'identity-check',
    category: 'compliance',
    title: 'Identity verification (KYC)',
    summary: `Checks usually complete in ${KYC_WINDOW}.`,
    body: [
      'Before your first payout your identity is verified, as payment regulations require: you set up your payout account on the Payouts page through our payment partner’s secure form, which asks for what it needs.',
      `Have a government-issued ID ready. Verification usually completes in ${KYC_WINDOW}; the Payouts page shows where it stands and anything still needed.`,
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
