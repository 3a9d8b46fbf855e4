// Words for the analytics figures: months, days (UTC), refresh times and counts. Months and days are
// read from their strings, never through a Date in the browser's zone, so "2026-10" is October wherever
// the artist is.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const count = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** "12,345". */
export const formatCount = (n: number): string => count.format(n);
/** "12.3K", for chart axes. */
export const formatCompact = (n: number): string => compact.format(n);

/** "Oct 2026" from "2026-10" (or "2026-10-01"); the string itself when it is neither. */
export function formatMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})/.exec(month);
  const name = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && name ? `${name} ${match[1]}` : month;
}

/** "Oct 3" from "2026-10-03" (a UTC day, as the trends feed counts them). */
export function formatDayShort(day: string): string {
  const match = /^\d{4}-(\d{2})-(\d{2})/.exec(day);
  const name = match ? MONTHS[Number(match[1]) - 1] : undefined;
  return match && name ? `${name} ${Number(match[2])}` : day;
}

const refreshedFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** "Dec 4, 2026, 3:00 PM UTC", or "never" when the feed was never refreshed. */
export function formatRefreshed(at: string | null): string {
  if (!at) return 'never';
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : `${refreshedFormat.format(date)} UTC`;
}

/** "Sale month Oct 2026 · reported Dec 2026" for the /app stat cards. */
export function saleAndReportLine(months: { saleMonth: string; reportedMonth: string }): string {
  return `Sale month ${formatMonth(months.saleMonth)} · reported ${formatMonth(months.reportedMonth)}`;
}
