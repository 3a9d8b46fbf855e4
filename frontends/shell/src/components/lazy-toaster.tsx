import { lazy, Suspense } from 'react';

// sonner is not needed for the first paint: load the toast region right after it.
const Toaster = lazy(() => import('@omni/ui/toaster').then((ui) => ({ default: ui.Toaster })));

export function LazyToaster() {
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
