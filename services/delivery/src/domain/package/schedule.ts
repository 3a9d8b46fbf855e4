// When a release starts at the stores, and its pre-order before it (shared/design/albums.md §4.4). Without a
// release time zone a store opens the release at 00:00 local time in each country (the deal's StartDate, a
// date); with one (America/New_York) it opens everywhere at once at 00:00 there (StartDateTime with that
// zone's offset on the day). A pre-order is a deal of its own (IsPreOrderDeal) from the pre-order date up to
// the release, and the release's visibility (display, cover art, track list) starts with it.
import type { catalog } from '@omni/proto';
import type { ErnDeal } from '../ddex/model';

/** A point a deal starts or ends at: a date (local midnight in each country) or an instant. */
export type DealMoment = { date: string } | { dateTime: string };

export interface ReleaseSchedule {
  start: DealMoment;
  /** The pre-order's start; absent: no pre-order. */
  preOrder?: DealMoment;
  /** What the release's visibility starts at (xs:dateTime), when there is a pre-order. */
  visibleFrom?: string;
}

/** `±hh:mm` of `zone` at the UTC instant `at` (Intl's longOffset: "GMT-05:00", or "GMT" for zero). */
function offsetAt(zone: string, at: Date): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const offset = name?.replace('GMT', '') ?? '';
  return offset === '' ? '+00:00' : offset;
}

const minutesOf = (offset: string) => {
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h = '0', m = '0'] = offset.slice(1).split(':');
  return sign * (Number(h) * 60 + Number(m));
};

/**
 * 00:00 on `date` in `zone`, as xs:dateTime with the zone's offset that day (`2027-01-15T00:00:00-05:00`).
 * The offset is read at the instant itself (a second look covers a day whose offset changes).
 */
export function zonedMidnight(date: string, zone: string): string {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  let offset = offsetAt(zone, new Date(utcMidnight));
  offset = offsetAt(zone, new Date(utcMidnight - minutesOf(offset) * 60_000));
  return `${date}T00:00:00${offset}`;
}

const dayBefore = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The instant a job may turn live (its `liveAt`): 00:00 on the release date in its time zone, or, for
 * local midnight in each country, 00:00 UTC. Null without a release date.
 */
export function releaseStartInstant(release: catalog.Release): string | null {
  if (!release.releaseDate) return null;
  const zone = release.releaseTimeZone;
  const start = zone ? zonedMidnight(release.releaseDate, zone) : `${release.releaseDate}T00:00:00Z`;
  return new Date(start).toISOString();
}

export function releaseSchedule(release: catalog.Release, startDate: string): ReleaseSchedule {
  const zone = release.releaseTimeZone;
  const at = (date: string): DealMoment => (zone ? { dateTime: zonedMidnight(date, zone) } : { date });
  const preOrderDate = release.preOrderDate && release.releaseDate ? release.preOrderDate : '';
  return {
    start: at(startDate),
    ...(preOrderDate
      ? {
          preOrder: at(preOrderDate),
          visibleFrom: zone ? zonedMidnight(preOrderDate, zone) : `${preOrderDate}T00:00:00`,
        }
      : {}),
  };
}

/**
 * The store's deals on the schedule: each from the release's start, and with a pre-order a copy of each
 * marked IsPreOrderDeal from the pre-order's start until the release starts (a date deal ends the day
 * before, an instant deal at the release's instant).
 */
export function scheduledDeals(deals: readonly ErnDeal[], schedule: ReleaseSchedule): ErnDeal[] {
  const starting = (d: ErnDeal, at: DealMoment): ErnDeal => {
    const { startDate: _date, startDateTime: _time, ...rest } = d;
    return 'date' in at ? { ...rest, startDate: at.date } : { ...rest, startDateTime: at.dateTime };
  };
  const main = deals.map((d) => starting(d, schedule.start));
  const preOrder = schedule.preOrder;
  if (!preOrder) return main;
  const start = schedule.start;
  const ending = 'date' in start ? { endDate: dayBefore(start.date) } : { endDateTime: start.dateTime };
  return [...main, ...deals.map((d) => ({ ...starting(d, preOrder), ...ending, preOrder: true }))];
}
