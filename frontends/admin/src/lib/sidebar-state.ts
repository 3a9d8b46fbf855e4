// The sidebar's open/collapsed state, kept in the cookie `sidebar_state` for 7 days (spec §9) so the
// choice survives reloads and new tabs.
export const SIDEBAR_COOKIE = 'sidebar_state';
const SEVEN_DAYS_IN_SECONDS = 60 * 60 * 24 * 7;

/** true (expanded) unless the cookie says 'false'. */
export function readSidebarOpen(cookie = document.cookie): boolean {
  const entry = cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SIDEBAR_COOKIE}=`));
  return entry?.slice(SIDEBAR_COOKIE.length + 1) !== 'false';
}

export function writeSidebarOpen(open: boolean): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain first-party cookie; the Cookie Store API is not in every browser.
  document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SEVEN_DAYS_IN_SECONDS}; samesite=lax`;
}
