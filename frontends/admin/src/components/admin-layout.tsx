import { Button, cn, useSession } from '@omni/ui';
import { FileAudio, Film, Link2, Music, ShieldCheck, Upload } from 'lucide-react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import '../styles.css';

const GROUPS = [
  {
    label: 'Admin',
    links: [
      { to: '/admin/uploads', label: 'Uploads', Icon: Upload },
      { to: '/admin/links', label: 'Contributor Links', Icon: Link2 },
      { to: '/admin/moderation', label: 'Moderation', Icon: ShieldCheck },
    ],
  },
  {
    label: 'Public Pages',
    links: [
      { to: '/music', label: 'Music', Icon: Music },
      { to: '/videos', label: 'Videos', Icon: Film },
    ],
  },
] as const;

/**
 * The CMS is for administrators only (the spec shows no check; we add one, and the admin API enforces it
 * too): signed-out visitors go to /login, signed-in artists are told they need an admin account.
 */
export default function AdminLayout() {
  const { status, session } = useSession();
  const location = useLocation();
  if (status === 'loading') {
    return (
      <p role="status" className="p-8 text-muted-foreground">
        Checking your session…
      </p>
    );
  }
  if (status === 'signed-out' || !session) {
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  if (!session.user.roles.includes('admin')) {
    return (
      <main id="main" className="mx-auto max-w-lg p-8 text-center">
        <h1 className="text-2xl font-bold">Administrators only</h1>
        <p className="mt-2 text-muted-foreground">
          OMNI CMS needs an administrator account. You are signed in as {session.user.email}.
        </p>
        <Button asChild className="mt-6">
          <Link to="/app">Go to your dashboard</Link>
        </Button>
      </main>
    );
  }
  return <AdminFrame />;
}

/** /admin frame: sidebar with the spec's two groups and the 'OMNI CMS' header; children render in <Outlet/>. */
function AdminFrame() {
  return (
    <div className="flex min-h-screen">
      <aside className="hidden w-64 shrink-0 border-r bg-muted/30 md:block">
        <div className="flex h-14 items-center gap-2 border-b px-4 font-bold">
          <FileAudio className="h-5 w-5 text-primary" aria-hidden="true" />
          Omni
        </div>
        <nav aria-label="Admin" className="space-y-6 p-3">
          {GROUPS.map((group) => (
            <div key={group.label}>
              <p className="px-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                {group.label}
              </p>
              <ul className="mt-2 space-y-1">
                {group.links.map(({ to, label, Icon }) => (
                  <li key={to}>
                    <NavLink
                      to={to}
                      className={({ isActive }) =>
                        cn(
                          'flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-accent',
                          isActive && 'bg-accent font-medium',
                        )
                      }
                    >
                      <Icon className="h-4 w-4" aria-hidden="true" />
                      {label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 items-center border-b px-6">
          <p className="text-lg font-semibold">OMNI CMS</p>
        </header>
        <main id="main" className="flex-1">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
