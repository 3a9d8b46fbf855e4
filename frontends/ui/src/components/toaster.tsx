import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { type ExternalToast, Toaster as SonnerToaster, toast as sonner, type ToastT } from 'sonner';

// Toasts follow three rules, so they never pile up:
// 1. One toast per form: a form passes one `id` for all its outcomes, and the latest replaces the
//    earlier ones (a success replaces the errors before it; sonner updates a toast with the same id).
// 2. The same toast twice is one toast: without an `id`, the kind and title are the id.
// 3. A toast belongs to the page it was shown on and goes when the user leaves it, unless it
//    `announces` the page the user goes to ('Welcome back!' on the way to /app).

export interface ToastOptions extends ExternalToast {
  /**
   * The path this toast is shown on the way to: it stays when the user arrives there. A path, not a
   * flag, because the page may already have changed when the toast appears (a sign-in's redirect can
   * beat the code that says 'Welcome back!'), and then the toast must not outlive the next navigation.
   */
  announces?: string;
}

/** What we keep on each sonner toast, beyond sonner's own fields. */
interface PageToast extends ToastT {
  announces?: string;
  shownOn?: string;
}

type Kind = 'message' | 'success' | 'error' | 'info' | 'warning';

const currentPath = () => (typeof window === 'undefined' ? '' : window.location.pathname);

function show(kind: Kind, title: string, options: ToastOptions = {}): string | number {
  const { id, ...rest } = options;
  // Sonner merges an update into the toast it replaces: what the earlier toast said must not linger.
  const replaceAll = { description: undefined, action: undefined, cancel: undefined, announces: undefined };
  return sonner[kind](title, {
    ...replaceAll,
    ...rest,
    shownOn: currentPath(),
    id: id ?? `${kind}:${title}`,
  } as ExternalToast);
}

/** sonner's toast() with the rules above. */
export const toast = Object.assign(
  (title: string, options?: ToastOptions) => show('message', title, options),
  {
    success: (title: string, options?: ToastOptions) => show('success', title, options),
    error: (title: string, options?: ToastOptions) => show('error', title, options),
    info: (title: string, options?: ToastOptions) => show('info', title, options),
    warning: (title: string, options?: ToastOptions) => show('warning', title, options),
    dismiss: (id?: string | number) => sonner.dismiss(id),
  },
);

/** Rule 3: on arriving at a page, the toasts that are not about it go. */
function useToastsStayOnTheirPage(): void {
  const { pathname } = useLocation();
  const page = useRef(pathname);
  useEffect(() => {
    if (page.current === pathname) return;
    page.current = pathname;
    for (const shown of sonner.getToasts() as PageToast[]) {
      if (shown.shownOn !== pathname && shown.announces !== pathname) sonner.dismiss(shown.id);
    }
  }, [pathname]);
}

/**
 * The page's single toast region. Rendered once by the shell, inside the router; remotes call `toast()`
 * and reach it because sonner is a federated singleton. Alt+T moves focus to the toasts (spec).
 */
export function Toaster() {
  useToastsStayOnTheirPage();
  return <SonnerToaster position="bottom-right" hotkey={['altKey', 'KeyT']} richColors closeButton />;
}
