// The sentences both sides of the API show a person: the web app before it sends, the gateway or the service
// that owns the rule when it refuses. Written once here so they cannot drift apart (spec §5 gives most of them
// word for word).

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_EMAIL_LENGTH = 254;

export const AUTH_MESSAGES = {
  invalidEmail: 'Invalid email address',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters`,
  passwordsDontMatch: "Passwords don't match",
  mailboxLocalOnly: 'The dev mailbox can only be read on the machine running Omni (from localhost).',
} as const;

export const RELEASE_MESSAGES = {
  required: 'Please fill in all required fields.',
  files: 'Please add both audio and artwork files.',
  songRequired: 'Title and Artist required.',
  songAudio: 'Choose an audio file.',
  releaseType: 'Release type must be single, ep or album.',
  bpmType: 'BPM must be a number.',
  bpmRange: 'BPM must be between 1 and 999.',
  explicit: 'Explicit must be true or false.',
  stores: 'Stores must be a list of store keys.',
  storeKey: 'Store keys must be text.',
  tooManyStores: 'Choose at most 500 stores.',
  tracks: 'Tracks must be a list of tracks, each with a title and an audio file.',
  tooManyTracks: 'A release has at most 100 tracks.',
  artistRole: "A featured artist's role must be featured or remixer.",
  featuredArtists: 'Featured artists must be a list of names with roles.',
  language: 'Language must be a two-letter ISO 639-1 code, such as en.',
  discNumber: 'Disc number must be a whole number from 1 to 20.',
  discOrder: "Discs are numbered from 1 without gaps, each disc's tracks after the previous disc's.",
  editTrackCount: (count: number) =>
    `List the release's ${count} track${count === 1 ? '' : 's'} in order (an empty entry leaves a track as it is); tracks cannot be added, removed or moved by an edit. To change the track list, create a new release.`,
  isrcLocked: (track: number) =>
    `Track ${track}'s ISRC cannot change: the release has reached stores, which identify the recording by its ISRC. To use another ISRC, create a new release.`,
  editTakenDown: 'This release is taken down from every store. Release it again first, then edit it.',
  editNothing: 'Send at least one field to change.',
  territories:
    'Excluded territories must be ISO 3166-1 two-letter country codes, such as CU or KP (at most 250).',
  deleteDelivered:
    'This release has been approved for stores or sent to them, so it cannot be deleted. Take it down from the stores instead.',
  deleted: 'Release deleted, with its files.',
  preOrderNeedsDate: 'A pre-order needs a release date: set the release date, then the pre-order date.',
  preOrderOrder: 'The pre-order date must come before the release date.',
  timeZone:
    'Release time zone must be a time zone such as America/New_York or Europe/Paris, or empty for midnight local time in each country.',
} as const;

/** '<label> must be text.' and the other per-field sentences, named by the field's label on the form. */
export const fieldMessages = {
  text: (label: string) => `${label} must be text.`,
  tooLong: (label: string, max: number) => `${label} is too long (${max} characters at most).`,
  list: (label: string) => `${label} must be a list of names.`,
  /** The shape of a date: the gateway's check. */
  dateFormat: (label: string) => `${label} must be written as YYYY-MM-DD.`,
  /** A date that does not exist (2026-02-30): catalog's check, which knows the calendar. */
  realDate: (label: string) => `${label} must be a real date written as YYYY-MM-DD.`,
} as const;

/** OMNI CMS: the admin screens, the contributor page and the services that judge them. */
export const CMS_MESSAGES = {
  required: 'Please fill all required fields',
  kind: 'Type must be music or video.',
  fileName: 'The file needs a name.',
  size: 'size must be the file size in bytes.',
  rejectReason: 'Please give a reason for the rejection.',
  linkPage: 'Choose a page for the link.',
  bucket: 'Choose a bucket.',
  file: 'Choose a file to upload.',
  folderTooLong: 'The folder path is too long.',
  releaseRequired: RELEASE_MESSAGES.songRequired,
  releaseAudio: RELEASE_MESSAGES.songAudio,
  signInFirst: 'Sign in first.',
  contributorKey:
    'This upload page did not say which contributor is sending (X-Contributor-Key). Reload the page and try again.',
  status: 'status must be pending, published or rejected.',
} as const;

/** 'Max Uses must be at least 1.' and its kin, for the link dialog's whole-number fields. */
export const wholeNumberMessages = (label: string, max: number) => ({
  type: `${label} must be a whole number from 1 to ${max}.`,
  min: `${label} must be at least 1.`,
  max: `${label} must be at most ${max}.`,
});

/** Billing: the spec's §8 texts the screens show, and the refusals the billing service sends (said once). */
export const BILLING_MESSAGES = {
  // Screens (spec §8).
  checkoutFailed: 'Failed to create checkout session. Please try again.',
  noCheckoutUrl: 'No checkout URL returned',
  authRequired: 'Authentication required',
  authRequiredDetail: 'Please sign up or log in to subscribe to Pro',
  openInNewTab: 'Open secure checkout',
  openInNewTabDetail: 'Click the button below to open Stripe in a new tab.',
  portalFailed: 'Failed to open subscription management. Please try again.',
  finderCheckFailed: 'Failed to check subscription status',
  finderCheckoutUnavailable: "We couldn't start checkout right now. Please try again shortly.",
  finderCheckoutError: 'Checkout service is temporarily unavailable. Please try again.',
  // Refusals (billing service → gateway → screens).
  unknownPrice: 'That price is not one of our plans. Reload the pricing page and choose a plan again.',
  alreadySubscribed: (product: string) =>
    `You already have an active ${product} subscription. Manage it from your dashboard.`,
  noBillingAccount: 'You have no subscription to manage yet. Choose a plan on the pricing page first.',
  badSignature:
    'The webhook signature does not match this endpoint, or its timestamp is too old (more than 5 minutes).',
  badEvent: 'The webhook body is not a Stripe event.',
  paymentsUnavailable: 'Payments are unavailable right now. Please try again in a few minutes.',
  sandboxLocalOnly:
    'The checkout sandbox can only be used on the machine running Omni (from localhost). It takes no real payments.',
} as const;

/** The Missing Money Finder: spec §8 texts and the scan's refusals (said once). */
export const FINDER_MESSAGES = {
  scanFailedTitle: 'Scan Failed',
  scanUnavailable: 'Scan service is temporarily unavailable. Please try again.',
  scanFailed: 'Scan failed',
  subscriptionRequired:
    'Scanning needs an active Missing Money Finder subscription. Subscribe on this page to run a scan.',
  playsNeedSubscription:
    'Uploading play counts needs an active Missing Money Finder subscription. Subscribe on this page first.',
  noScanYet: 'There is no scan to export yet. Run a scan first.',
  disclaimer:
    'Estimates only. Values are calculated from the play counts you supplied and published statutory rates; registrations were checked against registry snapshots of the dates shown, not live. Nothing here is a statement from any collecting society.',
  /** The disclaimer of a scan that checked no registry (none could be reached, no snapshot was held). */
  disclaimerNoRegistries:
    'Estimates only. Values are calculated from the play counts you supplied and published statutory rates. Registrations with collecting societies were not checked. Nothing here is a statement from any collecting society.',
} as const;
