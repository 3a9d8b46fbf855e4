import { AppHeader } from '@omni/ui';
import type { ReactNode } from 'react';
import '../styles.css';

/** The frame of the signed-in tools (/artist-upload, /uploader, /releases, /release/:id): the app header. */
export function PageFrame({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-muted/30">
      <AppHeader />
      <main id="main" className="container space-y-6 py-10">
        {children}
      </main>
    </div>
  );
}

/** A native <select> styled like the kit's inputs: simple to use with a keyboard and in tests. */
export const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm ring-offset-background focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-50';
