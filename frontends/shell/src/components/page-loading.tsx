import { Spinner } from '@omni/ui';

/** Shown while a remote's code arrives. */
export function PageLoading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner label="Loading page…" />
    </div>
  );
}
