import { displayNameOf, useDocumentTitle, useSession } from '@omni/ui';
import { DashboardHeader } from '../components/dashboard-header';
import { RequireSession } from '../components/session-gates';
import '../styles.css';

/** Spec: the welcome falls back to 'Artist' when the profile has no display name. */
const FALLBACK_NAME = 'Artist';

function Dashboard() {
  useDocumentTitle('Dashboard');
  const { session } = useSession();
  if (!session) return null;
  return (
    <div className="min-h-screen bg-muted/30">
      <DashboardHeader session={session} />
      <main id="main" className="container py-10">
        <h1 className="text-3xl font-bold tracking-tight">
          Welcome back, {displayNameOf(session.profile, FALLBACK_NAME)}!
        </h1>
        <p className="mt-2 text-muted-foreground">
          Your releases, streams, earnings and collaborators at a glance.
        </p>
        {/* Stat cards, the Pro card, action cards and Getting Started arrive with the releases issue. */}
        <section
          aria-label="Dashboard overview"
          className="mt-8 rounded-lg border border-dashed bg-background p-8 text-center text-sm text-muted-foreground"
          data-testid="dashboard-placeholder"
        >
          Your release stats, earnings and quick actions will appear here soon.
        </section>
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
