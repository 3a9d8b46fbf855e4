import { ComingSoonPage } from '@omni/ui';
import { Link } from 'react-router';
import '../styles.css';

/** A page of the signed-in area whose content is not built yet: a slim header and a main landmark. */
export function DashboardPlaceholder({ title, description }: { title: string; description: string }) {
  return (
    <div className="min-h-screen bg-muted/30">
      <header className="border-b bg-background">
        <div className="container flex h-14 items-center">
          <Link to="/" className="flex items-center gap-2 font-bold tracking-tight" aria-label="Omni home">
            <span className="inline-block h-6 w-6 rounded-full bg-primary" aria-hidden="true" />
            Omni
          </Link>
        </div>
      </header>
      <main id="main">
        <ComingSoonPage title={title} description={description} />
      </main>
    </div>
  );
}
