// The product facts the public pages state, in one place, so copy cannot drift from what Omni keeps
// (spec §9 and the delivery store list). Change a number here, not in a page.
import { PLANS } from '@omni/proto/api';

/** Stores the delivery service has a key for (services' store list: 142 keys, 20 preselected). */
export const STORE_COUNT = 142;
export const PRESELECTED_STORE_COUNT = 20;

/** Pro's prices are the billing contract's (what checkout charges), in dollars for the copy. */
export const PRO_MONTHLY_PRICE = PLANS.pro_monthly.amount / 100;
export const PRO_ANNUAL_PRICE = PLANS.pro_annual.amount / 100;
/** Twelve monthly payments minus the annual price, rounded down: $155.88 − $99 = $56. */
export const PRO_ANNUAL_SAVING = Math.floor(PRO_MONTHLY_PRICE * 12 - PRO_ANNUAL_PRICE);

export const MINIMUM_PAYOUT = 100;
export const PAYOUT_CYCLE_DAYS = 30;
export const ROYALTY_SHARE = '100%';

export const REVIEW_WINDOW = '24 to 72 hours';
export const KYC_WINDOW = '1 to 2 business days';
export const PAYMENT_RETRY_DAYS = 7;
export const SUPPORT_REPLY = '1 business day';
export const UPTIME_TARGET = '99.95%';
export const ARTWORK_SIZE = '3000 × 3000 pixels';

/** Who answers sales, DPA and demo requests. One address so a deployment changes it in one place. */
export const SALES_EMAIL = 'sales@omni.example';
export const PRESS_EMAIL = 'press@omni.example';
export const CAREERS_EMAIL = 'careers@omni.example';

/** Home countdown (spec §9): 20 s on the home page, 10 s wherever else the bar is used. */
export const HOME_COUNTDOWN_SECONDS = 20;
export const DEFAULT_COUNTDOWN_SECONDS = 10;
/** Landing hero particles (spec §9). */
export const HERO_PARTICLES = 60;
export const HERO_LINK_DISTANCE = 120;
/** 'Start Free' burst and the pause before going to /signup (spec §9). */
export const CONFETTI_PARTICLES = 40;
export const CONFETTI_MS = 1000;
export const SIGNUP_REDIRECT_MS = 300;

export const usd = (amount: number) => (Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`);
