// Checkout and the customer portal open in a new tab. Browsers allow a script to open a tab only during
// the click itself, and the address arrives after a round trip, so the tab is opened blank at once and
// pointed at the address when it comes (spec §7: "opened in new tab if possible").

export interface PendingTab {
  /** Shows `url` in the tab opened for it; when the browser refused a tab, in this one. */
  go(url: string): void;
  /** Closes the blank tab when there is nothing to show in it (spec §8: 'No checkout URL returned'). */
  close(): void;
}

/** Call synchronously inside the click handler, before anything is awaited. */
export function openPendingTab(): PendingTab {
  let tab: Window | null = null;
  try {
    tab = window.open('', '_blank');
  } catch {
    tab = null; // a sandboxed page may throw instead of returning null
  }
  if (tab) {
    // The hosted page must not be able to navigate ours (what rel="noopener" does for a link). Set here,
    // not as a window.open feature, because with 'noopener' the browser hands back no tab to point.
    try {
      tab.opener = null;
    } catch {
      // Some browsers make it read-only; the tab is still ours to point.
    }
  }
  return {
    go(url) {
      if (tab && !tab.closed) tab.location.href = url;
      else window.location.assign(url);
    },
    close() {
      if (tab && !tab.closed) tab.close();
    },
  };
}

/** Inside a frame (a preview pane, an embed) a new tab may be refused: the screens offer a link instead. */
export function isInFrame(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true; // a cross-origin parent refuses the comparison: that is a frame too
  }
}
