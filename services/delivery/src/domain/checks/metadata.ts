// Metadata style (shared/design/delivery.md: each artist in its own field, no "feat." or producers in
// titles, title casing, no marketing words, explicit flag correct, the label not credited as an artist).
// Titles checked: the release's and each track's (once when they are the same).
import type { catalog } from '@omni/proto';
import type { ReviewFinding } from '@omni/proto/api';
import { ARTISTS_IN_OWN_FIELDS, concerned, storeNames } from './stores';

/** "feat. X", "ft. X", "featuring X", "prod. X", "prod. by X", "produced by X". "Feature" is not one. */
const CREDIT_IN_TITLE = /\b(?:feat\b\.?|ft\.|featuring\b|prod\.|prod by\b|produced by\b)/i;

/**
 * Marketing words. "Official" and "Exclusive" are real song titles too ("Official", "Exclusive"), so they
 * count only as a tag: in brackets or after a dash ("(Official Video)", "- Exclusive"). "Free download",
 * web addresses and prices count anywhere.
 */
const MARKETING_TAG = /(?:[([{]|\s-\s)[^)\]}]*\b(?:official|exclusive)\b/i;
const MARKETING_ANYWHERE =
  /\bfree download\b|https?:\/\/|\bwww\.|\.(?:com|net|org|io)\b|[$€£]\s?\d|\d\s?[$€£]/i;

/** Version tags that contradict the explicit flag (tags only: "Clean" alone is a song title). */
const EXPLICIT_TAG = /(?:[([{]|\s-\s)[^)\]}]*\bexplicit\b|\bexplicit (?:version|edit)\b/i;
const CLEAN_TAG = /(?:[([{]|\s-\s)[^)\]}]*\bclean\b|\bclean (?:version|edit)\b/i;

/** "A & B", "A, B", "A x B", "A and B", "A with B", "A feat. B": the names an artist field credits. */
const ARTIST_SEPARATORS = /\s*(?:&|,|\+|\/|\bx\b|\band\b|\bwith\b|\bfeat\.?|\bft\.|\bfeaturing\b)\s*/i;

export function metadataFindings(release: catalog.Release, stores: readonly string[]): ReviewFinding[] {
  const titles = [...new Set([release.title, ...release.tracks.map((t) => t.title)])].filter(Boolean);
  const out: ReviewFinding[] = [];
  const own = concerned(ARTISTS_IN_OWN_FIELDS, stores);
  for (const title of titles) {
    if (own.length > 0 && CREDIT_IN_TITLE.test(title))
      out.push({
        rule: 'title.credits',
        severity: 'error',
        stores: own,
        message: `The title "${title}" names an artist or producer ("feat.", "ft.", "prod."). ${storeNames(own)} want each artist in their own field: remove it from the title and add the artist to the credits.`,
      });
    if (MARKETING_TAG.test(title) || MARKETING_ANYWHERE.test(title))
      out.push({
        rule: 'title.marketing',
        severity: 'error',
        stores: [],
        message: `The title "${title}" carries marketing words, a web address or a price ("Official", "Exclusive", "Free Download", "www…", "$…"). Stores refuse them: keep only the song's name.`,
      });
    const casing = casingProblem(title);
    if (casing)
      out.push({
        rule: 'title.casing',
        severity: 'warning',
        stores: [],
        message: `The title "${title}" is all in ${casing} letters. Stores may correct or refuse it: write it in title case unless the artist styles it so.`,
      });
  }
  out.push(...explicitFindings(release));
  const label = labelCredited(release);
  if (label)
    out.push({
      rule: 'artist.label',
      severity: 'error',
      stores: [],
      message: `The artist field credits the label "${label}" as an artist. Stores refuse it: name only the artists, and keep the label in the label field.`,
    });
  if (!release.genre.trim())
    out.push({
      rule: 'genre.empty',
      severity: 'error',
      stores: [],
      message: 'The release has no genre. Every store needs one: choose the closest genre.',
    });
  return out;
}

/** 'capital' or 'lower case' when every letter of a title (with at least 4 letters) is so. */
function casingProblem(title: string): string | null {
  const letters = title.replace(/[^\p{L}]/gu, '');
  if (letters.length < 4) return null;
  if (letters === letters.toUpperCase() && letters !== letters.toLowerCase()) return 'capital';
  if (letters === letters.toLowerCase() && letters !== letters.toUpperCase()) return 'lower case';
  return null;
}

function explicitFindings(release: catalog.Release): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  for (const track of release.tracks) {
    const title = track.title;
    if (!track.explicit && EXPLICIT_TAG.test(title))
      out.push({
        rule: 'explicit.flag',
        severity: 'error',
        stores: [],
        message: `The title "${title}" says explicit, but the track is not marked explicit. Mark it explicit (and remove the word from the title).`,
      });
    if (track.explicit && CLEAN_TAG.test(title))
      out.push({
        rule: 'explicit.flag',
        severity: 'error',
        stores: [],
        message: `The title "${title}" says clean, but the track is marked explicit. Correct the explicit mark (and remove the word from the title).`,
      });
  }
  return out;
}

/**
 * The label credited as an artist: the artist field names several artists and one of them is the label.
 * An artist named exactly like the label is a self-released artist, which is fine.
 */
function labelCredited(release: catalog.Release): string | null {
  const label = release.label.trim().toLowerCase();
  const artist = release.artist?.name ?? '';
  if (!label) return null;
  const names = artist
    .split(ARTIST_SEPARATORS)
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  return names.length > 1 && names.includes(label) ? release.label.trim() : null;
}
