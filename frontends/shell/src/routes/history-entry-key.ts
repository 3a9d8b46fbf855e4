/**
 * Gives the history entry the page was opened in a key of its own, before the router reads it.
 *
 * The router remembers scroll positions per history entry key, and a page opened by a full load has
 * no key yet: the router calls every such entry 'default'. So opening the home page again after
 * leaving it from far down (or any page after a full-load link such as 'Sign In') scrolled the new
 * page to the old position. The key lives in history.state, which the browser keeps for reloads
 * and back/forward (there the position is restored, as browsers do) and which a new visit starts
 * without (it starts at the top). The state's shape is the router's: { usr, key, idx }.
 */
export function keyInitialHistoryEntry(): void {
  const state = window.history.state as { key?: unknown } | null;
  if (state && typeof state.key === 'string' && state.key !== 'default') return;
  const key = Math.random().toString(36).slice(2, 10);
  window.history.replaceState({ usr: null, idx: 0, ...state, key }, '');
}
