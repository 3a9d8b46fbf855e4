import { AppHeader, Button, cn, OmniLogo, useSession } from '@omni/ui';
import { PanelLeft, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useSidebar } from '../hooks/use-sidebar';
import '../styles.css';
import { AdminNav } from './admin-nav';

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
    // The app's own header and navigation: the artist is in the signed-in app, only not allowed here.
    return (
      <div className="min-h-screen bg-muted/30">
        <AppHeader />
        <main id="main" className="mx-auto max-w-lg p-8 text-center">
          <h1 className="text-2xl font-bold">Administrators only</h1>
          <p className="mt-2 text-muted-foreground">
            OMNI CMS needs an administrator account. You are signed in as {session.user.email}.
          </p>
          <Button asChild className="mt-6">
            <Link to="/app">Go to your dashboard</Link>
          </Button>
        </main>
      </div>
    );
  }
  return <AdminFrame />;
}

/**
 * /admin frame: the 'OMNI CMS' header with the sidebar trigger, the sidebar (16rem, or a 3rem icon rail
 * when collapsed; a sheet from the left on phones), and the page in <Outlet/>.
 */
function AdminFrame() {
  const sidebar = useSidebar();
  const expanded = sidebar.isMobile ? sidebar.sheetOpen : sidebar.open;
  return (
    <div className="flex min-h-screen">
      <aside
        id="cms-sidebar"
        aria-label="Sidebar"
        data-state={sidebar.open ? 'expanded' : 'collapsed'}
        className={cn(
          'sticky top-0 hidden h-screen shrink-0 overflow-y-auto overflow-x-hidden border-r bg-muted/30 transition-[width] duration-200 md:block',
          sidebar.open ? 'w-64' : 'w-12',
        )}
      >
        <SidebarBrand collapsed={!sidebar.open} />
        <AdminNav collapsed={!sidebar.open} />
      </aside>
      <Dialog.Root open={sidebar.isMobile && sidebar.sheetOpen} onOpenChange={sidebar.setSheetOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
          <Dialog.Content
            data-testid="cms-sheet"
            className="fixed inset-y-0 left-0 z-50 w-72 overflow-y-auto border-r bg-background shadow-lg focus:outline-none"
          >
            <Dialog.Title className="sr-only">OMNI CMS navigation</Dialog.Title>
            <Dialog.Description className="sr-only">
              Pages of the CMS and the public pages.
            </Dialog.Description>
            <div className="flex items-center justify-between border-b pr-2">
              <SidebarBrand collapsed={false} bordered={false} />
              <Dialog.Close asChild>
                <Button variant="ghost" size="icon" aria-label="Close navigation">
                  <X aria-hidden="true" />
                </Button>
              </Dialog.Close>
            </div>
            <AdminNav onNavigate={() => sidebar.setSheetOpen(false)} />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-10 flex h-14 items-center gap-2 border-b bg-background px-3 md:px-6">
          <Button
            variant="ghost"
            size="icon"
            onClick={sidebar.toggle}
            aria-label="Toggle sidebar"
            aria-expanded={expanded}
            aria-controls={sidebar.isMobile ? undefined : 'cms-sidebar'}
            aria-keyshortcuts="Control+B Meta+B"
            title="Toggle sidebar (Ctrl+B)"
          >
            <PanelLeft aria-hidden="true" />
          </Button>
          <p className="text-lg font-semibold">OMNI CMS</p>
        </header>
        <main id="main" className="flex-1">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** The kit's one Omni logo (as on the public site and in the app), leading back to the app's dashboard. */
function SidebarBrand({ collapsed, bordered = true }: { collapsed: boolean; bordered?: boolean }) {
  return (
    <div
      className={cn('flex h-14 items-center', bordered && 'border-b', collapsed ? 'justify-center' : 'px-4')}
    >
      <OmniLogo to="/app" label="Omni dashboard" markOnly={collapsed} />
    </div>
  );
}
