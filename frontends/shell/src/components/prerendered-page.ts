// The gateway may send a page already rendered at build time inside #omni-prerender (see
// services/gateway/src/http/web/prerendered-pages.ts). It stays on screen while the page's code loads,
// in place of a spinner, and goes in the same frame the live page (or an error) first shows. What the
// visitor typed into it meanwhile (the support search, a form) is carried into the live page, with
// the focus: on a slow phone that window can be seconds, and input must never be lost.
import { useLayoutEffect } from 'react';

const PRERENDER_ID = 'omni-prerender';
const CONTROLS = 'input, textarea, select';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** True while the server's rendering of the page is still on screen. */
export function showingPrerenderedPage(): boolean {
  return document.getElementById(PRERENDER_ID) !== null;
}

const edited = (control: Control) =>
  control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')
    ? control.checked !== control.defaultChecked
    : control instanceof HTMLSelectElement
      ? [...control.options].some((option) => option.selected !== option.defaultSelected)
      : control.value !== control.defaultValue;

/**
 * Sets a value the way typing would, so React's onChange sees it: React tracks the value an input
 * last rendered and ignores events that do not change it, so the setter of the element's prototype
 * (not React's) is used, then the event React listens for is fired.
 */
function enter(from: Control, to: Control): void {
  if (to instanceof HTMLInputElement && (to.type === 'checkbox' || to.type === 'radio')) {
    if (to.checked !== (from as HTMLInputElement).checked) to.click();
    return;
  }
  const prototype = Object.getPrototypeOf(to) as object;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(to, from.value);
  to.dispatchEvent(new Event(to instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/**
 * Controls are paired by their order in the page (the two renderings come from the same components;
 * React's generated ids differ between server and browser, so ids cannot pair them), and only where
 * the pair agrees on tag, type and name.
 */
function carryOver(prerendered: Element, live: Element): void {
  const before = [...prerendered.querySelectorAll<Control>(CONTROLS)];
  const after = [...live.querySelectorAll<Control>(CONTROLS)];
  const focused = document.activeElement;
  before.forEach((from, index) => {
    const to = after[index];
    const same = to && to.tagName === from.tagName && to.type === from.type && to.name === from.name;
    if (!same) return;
    if (edited(from)) enter(from, to);
    if (from === focused) {
      to.focus({ preventScroll: true });
      if (from instanceof HTMLInputElement || from instanceof HTMLTextAreaElement) {
        try {
          (to as HTMLInputElement).setSelectionRange(from.selectionStart, from.selectionEnd);
        } catch {
          // email, number and some other inputs have no selection to restore
        }
      }
    }
  });
}

/**
 * Call in whatever replaces the prerendered page. A layout effect runs after React has put its page
 * into the DOM and before the browser paints, so the visitor never sees both or neither.
 */
export function useReplacePrerenderedPage(): void {
  useLayoutEffect(() => {
    const prerendered = document.getElementById(PRERENDER_ID);
    if (!prerendered) return;
    const live = document.getElementById('root');
    if (live) carryOver(prerendered, live);
    prerendered.remove();
  }, []);
}
