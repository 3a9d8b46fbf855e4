import { createQueryClient } from '@omni/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

// One client for the page's lifetime, so cached data survives navigating between remote pages.
const queryClient = createQueryClient();

/** Context every remote page may rely on. Loaded with the first remote page, not with the shell. */
export default function RemoteProviders({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
