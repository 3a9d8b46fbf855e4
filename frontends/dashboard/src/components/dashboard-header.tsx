import { AppHeader } from '@omni/ui';
import type { ReactNode } from 'react';

/**
 * /app header: the app's one header and navigation (the kit's AppHeader, shared by every app screen),
 * with the 'Pro' badge for subscribers (the dashboard asks billing).
 */
export function DashboardHeader({ badge }: { badge?: ReactNode }) {
  return <AppHeader badge={badge} />;
}
