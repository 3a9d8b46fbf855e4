import {
  BarChart3,
  Disc3,
  HardDriveUpload,
  LayoutDashboard,
  LayoutPanelLeft,
  LogOut,
  type LucideIcon,
  Menu,
  SearchCheck,
  Upload,
  UserRound,
  Wallet,
  X,
} from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { cn } from '../lib/cn';
import { signOutWithToast } from '../lib/sign-out';
import { useSession } from '../use-session';
import { Button } from './button';
import { OmniLogo } from './omni-logo';

export interface AppNavLink {
  to: string;
  label: string;
  Icon: LucideIcon;
  /** Shown to administrators only (the CMS's layout and API refuse everyone else anyway). */
  adminOnly?: boolean;
  /** Other paths that belong to this entry (a release's page is under Releases). */
  alsoCurrentUnder?: string;
}

/**
 * The signed-in app's one navigation (issue 21 §3.3). Every app screen renders it through <AppHeader>,
 * whichever remote it lives in, so the list and its order are written here only.
 */
export const APP_NAV_LINKS: readonly AppNavLink[] = [
  { to: '/app', label: 'Dashboard', Icon: LayoutDashboard },
  { to: '/releases', label: 'Releases', Icon: Disc3, alsoCurrentUnder: '/release/' },
  { to: '/app/analytics', label: 'Analytics', Icon: BarChart3 },
  { to: '/app/payouts', label: 'Payouts', Icon: Wallet },
  { to: '/artist-upload', label: 'Upload', Icon: Upload },
  { to: '/uploader', label: 'Uploader', Icon: HardDriveUpload },
  { to: '/missing-money-finder', label: 'Finder', Icon: SearchCheck },
  { to: '/account', label: 'Account', Icon: UserRound },
  {
    to: '/admin/uploads',
    label: 'OMNI CMS',
    Icon: LayoutPanelLeft,
    adminOnly: true,
    alsoCurrentUnder: '/admin',
  },
];

/** Whether `link` is the page at `pathname` (its own path, or a page that belongs to it). */
export function isCurrentAppLink(link: AppNavLink, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return path === link.to || (!!link.alsoCurrentUnder && path.startsWith(link.alsoCurrentUnder));
}

function NavLinks({
  links,
  pathname,
  stacked,
  onNavigate,
}: {
  links: readonly AppNavLink[];
  pathname: string;
  stacked?: boolean;
  onNavigate?: () => void;
}) {
  return (
    <ul className={cn(stacked ? 'flex flex-col gap-1' : 'flex items-center gap-1')}>
      {links.map((link) => {
        const current = isCurrentAppLink(link, pathname);
        return (
          <li key={link.to}>
            <Link
              to={link.to}
              onClick={onNavigate}
              aria-current={current ? 'page' : undefined}
              className={cn(
                'flex items-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                stacked ? 'px-3 py-2.5 text-base' : 'px-2.5 py-1.5',
                current ? 'bg-accent text-foreground' : 'text-muted-foreground',
              )}
            >
              {/* Icons in the phone sheet only: the desktop row is a row of words, which fits 1,024 px. */}
              {stacked ? <link.Icon className="h-4 w-4 shrink-0" aria-hidden="true" /> : null}
              {link.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function SignedInAs({ name, email, className }: { name: string | null; email: string; className?: string }) {
  return (
    <div className={cn('min-w-0 leading-tight', className)} data-testid="signed-in-as">
      <p className="truncate text-sm font-medium">{name ?? email}</p>
      {name ? <p className="truncate text-xs text-muted-foreground">{email}</p> : null}
    </div>
  );
}

interface AppHeaderProps {
  /** Shown beside who is signed in (the dashboard's 'Pro' badge for subscribers). */
  badge?: ReactNode;
}

/**
 * The header of every signed-in app screen: the logo (to /app), the app's navigation with the current page
 * marked (aria-current="page"), who is signed in and Sign out. From 1,024 px the links sit in the header's
 * row; below, a Menu button opens them in a sheet (a Radix dialog: focus moves in, Escape closes it).
 * A visitor who is not signed in (the tools' pages say why they need an account) sees the logo and Sign In.
 */
export function AppHeader({ badge }: AppHeaderProps) {
  const { status, session } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);

  // A navigation (a link, back/forward) closes the sheet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => setMenuOpen(false), [pathname]);

  if (!session) {
    return (
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
        <div className="container flex h-16 items-center justify-between gap-4">
          <OmniLogo />
          {status === 'signed-out' ? (
            <Button asChild size="sm">
              <Link to="/login">Sign In</Link>
            </Button>
          ) : null}
        </div>
      </header>
    );
  }

  const isAdmin = session.user.roles.includes('admin');
  const links = APP_NAV_LINKS.filter((link) => !link.adminOnly || isAdmin);
  const name = session.profile.displayName?.trim() || null;
  const { email } = session.user;
  const signOut = () => {
    setMenuOpen(false);
    void signOutWithToast(() => navigate('/', { replace: true }));
  };

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="container flex h-16 items-center justify-between gap-4">
        <div className="flex min-w-0 items-center gap-6">
          <OmniLogo to="/app" label="Omni dashboard" />
          <nav aria-label="App" className="hidden lg:block">
            <NavLinks links={links} pathname={pathname} />
          </nav>
        </div>
        <div className="flex min-w-0 items-center gap-3">
          {badge}
          <SignedInAs name={name} email={email} className="hidden max-w-[14rem] text-right xl:block" />
          <Button variant="outline" size="sm" className="hidden lg:inline-flex" onClick={signOut}>
            <LogOut aria-hidden="true" />
            Sign out
          </Button>
          <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
            <Dialog.Trigger asChild>
              <Button variant="outline" size="sm" className="lg:hidden" aria-label="Open app menu">
                <Menu aria-hidden="true" />
                Menu
              </Button>
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
              <Dialog.Content
                data-testid="app-menu"
                className="fixed inset-y-0 right-0 z-50 flex w-72 max-w-[85vw] flex-col gap-4 overflow-y-auto border-l bg-background p-4 shadow-lg focus:outline-none"
              >
                <div className="flex items-center justify-between gap-2">
                  <Dialog.Title className="text-lg font-semibold">Menu</Dialog.Title>
                  <Dialog.Close asChild>
                    <Button variant="ghost" size="icon" aria-label="Close menu">
                      <X aria-hidden="true" />
                    </Button>
                  </Dialog.Close>
                </div>
                <Dialog.Description className="sr-only">The pages of your Omni account.</Dialog.Description>
                <SignedInAs name={name} email={email} className="border-b pb-4" />
                <nav aria-label="App">
                  <NavLinks links={links} pathname={pathname} stacked onNavigate={() => setMenuOpen(false)} />
                </nav>
                <Button variant="outline" className="mt-auto" onClick={signOut}>
                  <LogOut aria-hidden="true" />
                  Sign out
                </Button>
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
        </div>
      </div>
    </header>
  );
}
