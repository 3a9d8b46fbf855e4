import { Toaster as SonnerToaster } from 'sonner';

export { toast } from 'sonner';

/**
 * The page's single toast region. Rendered once by the shell; remotes call `toast()` and reach it
 * because sonner is a federated singleton. Alt+T moves focus to the toasts (spec).
 */
export function Toaster() {
  return <SonnerToaster position="bottom-right" hotkey={['altKey', 'KeyT']} richColors closeButton />;
}
