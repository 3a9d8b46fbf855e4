// Billing periods as Stripe counts them: from the billing cycle anchor, whole calendar months or years,
// a day past the end of a shorter month falling on its last day (Jan 31 → Feb 28 → Mar 31).

export type Interval = 'month' | 'year';

/** The end of the n-th period after `anchor` (unix seconds). */
export function periodEnd(anchor: number, interval: Interval, n: number): number {
  const a = new Date(anchor * 1000);
  const months = interval === 'year' ? 12 * n : n;
  const y = a.getUTCFullYear() + Math.floor((a.getUTCMonth() + months) / 12);
  const m = (a.getUTCMonth() + months) % 12;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = Math.min(a.getUTCDate(), lastDay);
  return Math.floor(Date.UTC(y, m, d, a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds()) / 1000);
}

export const DAY = 86_400;
