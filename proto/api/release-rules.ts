// Store rules about a release as a whole that both the browser (the release builder warns before a byte is
// sent) and catalog (the release's warnings) apply: one source for the rule and its words.
import { RELEASE_MESSAGES } from './messages';
import type { ReleaseType } from './release-constants';

const A_TYPE: Record<ReleaseType, string> = { single: 'a single', ep: 'an EP', album: 'an album' };

/** Apple's rule for a release's type from its tracks (shared/design/albums.md §4.2, Apple's style guide). */
export function appleReleaseType(trackSeconds: readonly number[]): ReleaseType {
  const total = trackSeconds.reduce((a, b) => a + b, 0);
  if (trackSeconds.length >= 7 || total >= 30 * 60) return 'album';
  if (trackSeconds.length >= 4 || trackSeconds.some((s) => s >= 10 * 60)) return 'ep';
  return 'single';
}

/** The warning when Apple would list the release as another type than the artist chose; null when not. */
export function appleTypeWarning(trackSeconds: readonly number[], releaseType: ReleaseType): string | null {
  if (trackSeconds.length === 0) return null;
  const apple = appleReleaseType(trackSeconds);
  if (apple === releaseType) return null;
  return `Apple Music will list this release as ${A_TYPE[apple]}, not ${A_TYPE[releaseType]}: it counts up to 3 tracks under 10 minutes each and 30 minutes in all as a single, up to 3 tracks with one of 10 minutes or more, or 4–6 tracks, under 30 minutes as an EP, and 7 or more tracks or 30 minutes or more as an album.`;
}

/**
 * Whether `zone` names an IANA time zone this runtime knows (America/New_York, Europe/Paris, UTC). The
 * release time zone is one of these or empty (00:00 local time in each country, the stores' usual way).
 */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * What is wrong with a pre-order date beside the release date (both YYYY-MM-DD or empty), or null: a
 * pre-order needs a release date and comes before it (ERN: the pre-order deal starts earlier than the
 * release's, shared/design/albums.md §4.4).
 */
export function preOrderProblem(preOrderDate: string, releaseDate: string): string | null {
  if (!preOrderDate) return null;
  if (!releaseDate) return RELEASE_MESSAGES.preOrderNeedsDate;
  return preOrderDate < releaseDate ? null : RELEASE_MESSAGES.preOrderOrder;
}
