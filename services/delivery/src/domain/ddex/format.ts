// Value formats ERN 4.3 fixes by schema type (xs:duration, ddex_IsoDate), kept in one place.

/** Seconds as an ISO 8601 duration, e.g. 195 → `PT3M15S` (xs:duration; whole seconds, as stores show them). */
export function isoDuration(totalSeconds: number): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds || whole === 0 ? `${seconds}S` : ''}`;
}

/**
 * The display artist line (DisplayArtistName): main artists joined, featured ones after "feat.", which is
 * how stores print the line; each artist is still sent separately as a DisplayArtist.
 */
export function displayArtistName(artists: readonly { name: string; role: string }[]): string {
  const main = artists.filter((a) => a.role === 'MainArtist').map((a) => a.name);
  const featured = artists.filter((a) => a.role === 'FeaturedArtist').map((a) => a.name);
  return featured.length ? `${main.join(', ')} feat. ${featured.join(', ')}` : main.join(', ');
}
