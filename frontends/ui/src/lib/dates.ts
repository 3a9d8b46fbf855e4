import { format, formatDistanceToNowStrict, isValid, parseISO } from 'date-fns';

type DateInput = Date | string | number;

function toDate(value: DateInput): Date | null {
  const date = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(date) ? date : null;
}

/** Date on public cards (spec: 'MMM d, yyyy', e.g. "Mar 5, 2025"). Empty string for an unparseable date. */
export function formatPublished(value: DateInput): string {
  const date = toDate(value);
  return date ? format(date, 'MMM d, yyyy') : '';
}

/** Date and time in admin tables (spec: 'PPp', e.g. "Mar 5, 2025, 2:07 PM"). */
export function formatTable(value: DateInput): string {
  const date = toDate(value);
  return date ? format(date, 'PPp') : '';
}

/** How long ago, for queues ("2 hours ago"). Empty string for an unparseable date. */
export function formatAgo(value: DateInput): string {
  const date = toDate(value);
  return date ? formatDistanceToNowStrict(date, { addSuffix: true }) : '';
}
