// Which stores each store-specific rule concerns, named once here by platform key. Where storage or catalog
// already named them for the same rule (storage's domain/store-rules.ts: STORES_REFUSING_MONO; catalog's
// domain/file-rules.ts: SHORT_SINGLE_REFUSED_BY), these are the same stores: keep them in step.
import { PLATFORMS } from '@omni/proto/api';

/** DJ download stores whose partner guides ask for stereo (storage: Beatport, Beatsource, Traxsource, Juno Download). */
export const REFUSING_MONO = ['beatport', 'beatsource', 'traxsource', 'junodownload'];

/** Stores reported to refuse a single-track release under 30 s (catalog's file-rules.ts). */
export const REFUSING_SHORT_SINGLE = ['apple_music', 'amazon_music'];

/**
 * Stores whose style guides want each artist in its own field: "feat." / "prod." in a title is refused
 * (their ingestion builds the display title from the artist fields).
 */
export const ARTISTS_IN_OWN_FIELDS = [
  'spotify',
  'apple_music',
  'amazon_music',
  'deezer',
  'tidal',
  'youtube_music',
];

/** The rule's stores among the release's, or [] when the release goes to none of them. */
export const concerned = (ruleStores: readonly string[], chosen: readonly string[]) =>
  chosen.filter((s) => ruleStores.includes(s));

/** Display names for a message ("Beatport, Traxsource"). */
export const storeNames = (keys: readonly string[]) =>
  keys.map((k) => PLATFORMS.find((p) => p.key === k)?.name ?? k).join(', ');
