import { displayNameOf, useDocumentTitle, useSession } from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { DashboardHeader } from '../components/dashboard-header';
import { ActionCards, GettingStarted, ReleaseList, StatCards } from '../components/dashboard-sections';
import { PastDueBanner } from '../components/past-due-banner';
import { RequireSession } from '../components/session-gates';
import { ProBadge, SubscriptionCard } from '../components/subscription-card';
import { fetchDashboard } from '../lib/releases-api';
import { useSubscription } from '../lib/use-subscription';
import '../styles.css';

/** Spec: the welcome falls back to 'Artist' when the profile has no display name. */
const FALLBACK_NAME = 'Artist';

function Dashboard() {
  useDocumentTitle('Dashboard');
  const { session } = useSession();
  const stats = useQuery({
    queryKey: ['dashboard', session?.user.id],
    queryFn: fetchDashboard,
    enabled: !!session,
  });
  const subscription = useSubscription('pro');
  // Spec section 8: a failed stats call is logged only; the cards show dashes.
  useEffect(() => {
    if (stats.error) console.error('Dashboard stats failed to load', stats.error);
  }, [stats.error]);
  if (!session) return null;
  return (
    <div className="min-h-screen bg-muted/30">
      <DashboardHeader badge={subscription?.subscribed ? <ProBadge /> : null} />
      <main id="main" className="container py-10">
        <h1 className="text-3xl font-bold tracking-tight">
          Welcome back, {displayNameOf(session.profile, FALLBACK_NAME)}!
        </h1>
        <p className="mt-2 text-muted-foreground">
          Your releases, streams, earnings and collaborators at a glance.
          {session.profile.displayName ? null : (
            <>
              {' '}
              {/* A new account has no name yet: say where it is set, instead of calling everyone 'Artist'. */}
              <Link to="/account" className="font-medium text-primary underline-offset-4 hover:underline">
                Add your name
              </Link>
            </>
          )}
        </p>
        <div className="mt-8 space-y-6">
          <PastDueBanner subscription={subscription} />
          <StatCards data={stats.data} />
          <SubscriptionCard subscription={subscription} />
          <ActionCards />
          <div className="grid gap-6 lg:grid-cols-2">
            <GettingStarted />
            <ReleaseList releases={stats.data?.releases ?? (stats.error ? [] : undefined)} />
          </div>
        </div>
      </main>
    </div>
  );
}

export default function DashboardPage() {
  return (
    <RequireSession>
      <Dashboard />
    </RequireSession>
  );
}
