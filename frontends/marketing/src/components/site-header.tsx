import { Button, buttonVariants, cn, OmniLogo } from '@omni/ui';
import { ChevronDown, LayoutDashboard, LogOut, Menu, X } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { signOut } from '../lib/sign-out';
import { useInBrowser } from '../lib/use-in-browser';
import { useSignedIn } from '../lib/use-signed-in';

type Breakpoint = 'md' | 'lg' | 'xl';

/**
 * The spec's nine links, each with the width from which it sits in the header's row; below that it is
 * in the 'More' menu (and below 768 px every link is in the mobile menu). One row at every width:
 * nine links and two buttons need about 1,100 px, so the row takes what fits.
 */
export const NAV_LINKS: readonly { to: string; label: string; inRowFrom: Breakpoint }[] = [
  { to: '/features', label: 'Features', inRowFrom: 'md' },
  { to: '/pricing', label: 'Pricing', inRowFrom: 'md' },
  { to: '/artists', label: 'Artists', inRowFrom: 'md' },
  { to: '/labels', label: 'Labels', inRowFrom: 'lg' },
  { to: '/managers', label: 'Managers', inRowFrom: 'lg' },
  { to: '/missing-money-finder', label: 'Missing Money Finder', inRowFrom: 'xl' },
  { to: '/security', label: 'Security', inRowFrom: 'xl' },
  { to: '/support', label: 'Support', inRowFrom: 'xl' },
  { to: '/company', label: 'Company', inRowFrom: 'xl' },
];

// Whole class names, so Tailwind finds them.
const IN_ROW: Record<Breakpoint, string> = {
  md: 'hidden md:inline-flex',
  lg: 'hidden lg:inline-flex',
  xl: 'hidden xl:inline-flex',
};
const IN_MORE: Record<Breakpoint, string> = { md: 'hidden', lg: 'lg:hidden', xl: 'xl:hidden' };

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'items-center whitespace-nowrap rounded-md px-2 py-1 text-sm font-medium transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
    isActive ? 'text-foreground' : 'text-muted-foreground',
  );

/**
 * The page rendered at build time cannot know who visits, so it carries both variants of the
 * session buttons; index.html marks <html data-session="signed-in"> from localStorage before the
 * first paint and these classes show the right one. The live header renders one variant only.
 */
const ONLY_SIGNED_OUT = '[html[data-session=signed-in]_&]:hidden';
const ONLY_SIGNED_IN = 'hidden [html[data-session=signed-in]_&]:flex';

interface SessionActionsProps {
  signedIn: boolean | null;
  /** Stacked full-width buttons (mobile menu) rather than a row of small ones. */
  stacked?: boolean;
  onNavigate?: () => void;
}

/** Sign In / Get Started for visitors; the way to the dashboard and Sign out for a signed-in user. */
function SessionActions({ signedIn, stacked = false, onNavigate }: SessionActionsProps) {
  const navigate = useNavigate();
  const size = stacked ? 'default' : 'sm';
  const layout = stacked ? 'grid grid-cols-2 gap-2' : 'flex items-center gap-2';
  const signedOutButtons = (
    <>
      <Button asChild variant={stacked ? 'outline' : 'ghost'} size={size}>
        {/* A full page load on purpose (spec): sign-in starts from a fresh page. */}
        <a href="/login">Sign In</a>
      </Button>
      <Button asChild size={size}>
        <Link to="/signup" onClick={onNavigate}>
          Get Started
        </Link>
      </Button>
    </>
  );
  const signedInButtons = (
    <>
      <Button asChild size={size}>
        <Link to="/app" onClick={onNavigate}>
          <LayoutDashboard aria-hidden="true" />
          Dashboard
        </Link>
      </Button>
      <Button
        variant={stacked ? 'outline' : 'ghost'}
        size={size}
        onClick={async () => {
          onNavigate?.();
          if (await signOut()) navigate('/', { replace: true });
        }}
      >
        <LogOut aria-hidden="true" />
        Sign out
      </Button>
    </>
  );
  if (signedIn === null) {
    return (
      <>
        <div className={cn(layout, ONLY_SIGNED_OUT)}>{signedOutButtons}</div>
        <div className={cn(layout, ONLY_SIGNED_IN)}>{signedInButtons}</div>
      </>
    );
  }
  return <div className={layout}>{signedIn ? signedInButtons : signedOutButtons}</div>;
}

/** The links below 768 px, under the header's top row. */
function MobileMenu({
  signedIn,
  onNavigate,
  className,
}: {
  signedIn: boolean | null;
  onNavigate?: () => void;
  className?: string;
}) {
  return (
    <nav id="mobile-menu" aria-label="Mobile" className={cn('border-t md:hidden', className)}>
      <div className="container flex flex-col gap-1 py-4">
        {NAV_LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            className={(state) => cn(linkClass(state), 'flex py-2 text-base')}
            onClick={onNavigate}
          >
            {link.label}
          </NavLink>
        ))}
        <div className="mt-3">
          <SessionActions signedIn={signedIn} stacked onNavigate={onNavigate} />
        </div>
      </div>
    </nav>
  );
}

/** The links that do not fit in the row at this width (768 to 1,279 px). */
function MoreLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <ul className="absolute right-0 top-full z-50 mt-2 min-w-48 rounded-md border bg-background p-1 shadow-md">
      {NAV_LINKS.map((link) => (
        <li key={link.to} className={IN_MORE[link.inRowFrom]}>
          <NavLink
            to={link.to}
            className={(state) => cn(linkClass(state), 'flex w-full px-3 py-2 hover:bg-accent')}
            onClick={onNavigate}
          >
            {link.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function MoreMenu() {
  const inBrowser = useInBrowser();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const label: ReactNode = (
    <>
      More
      <ChevronDown aria-hidden="true" className="h-4 w-4" />
    </>
  );
  if (!inBrowser) {
    // Built-time page: a menu that opens without scripts, until the live page replaces it.
    return (
      <details className="relative">
        <summary className={cn(linkClass({ isActive: false }), 'flex cursor-pointer list-none gap-1')}>
          {label}
        </summary>
        <MoreLinks />
      </details>
    );
  }
  return (
    <div ref={root} className="relative">
      <button
        ref={toggle}
        type="button"
        className={cn(linkClass({ isActive: false }), 'flex gap-1')}
        aria-expanded={open}
        aria-controls="more-links"
        onClick={() => setOpen((value) => !value)}
      >
        {label}
      </button>
      {open ? (
        <div id="more-links">
          <MoreLinks onNavigate={() => setOpen(false)} />
        </div>
      ) : null}
    </div>
  );
}

/**
 * The public header (spec: nine links, logo to /, Sign In as a full page load, Get Started to
 * /signup; a signed-in visitor gets the way to the dashboard and Sign out instead). One row at every
 * width: below 768 px the links fold into the mobile menu, from 768 px to 1,279 px those that do not
 * fit go into 'More'.
 */
export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const inBrowser = useInBrowser();
  const signedIn = useSignedIn();
  const { pathname } = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // A navigation closes the menu (the links do it too; this also covers back/forward).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="container flex items-center justify-between gap-4 py-3">
        <OmniLogo />
        <nav aria-label="Main" className="hidden min-w-0 items-center gap-1 md:flex">
          {NAV_LINKS.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={(state) => cn(linkClass(state), IN_ROW[link.inRowFrom])}
            >
              {link.label}
            </NavLink>
          ))}
          <div className="xl:hidden">
            <MoreMenu />
          </div>
        </nav>
        <div className="hidden shrink-0 md:flex">
          <SessionActions signedIn={signedIn} />
        </div>
        {inBrowser ? (
          <Button
            ref={toggleRef}
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </Button>
        ) : (
          // In the page rendered at build time, a menu that opens without scripts (until the live
          // page replaces it; a slow phone can take seconds).
          <details className="md:hidden">
            <summary
              aria-label="Open menu"
              className={cn(
                buttonVariants({ variant: 'ghost', size: 'icon' }),
                'cursor-pointer list-none [&::-webkit-details-marker]:hidden',
              )}
            >
              <Menu aria-hidden="true" />
            </summary>
            <MobileMenu signedIn={signedIn} className="absolute inset-x-0 top-full bg-background shadow-sm" />
          </details>
        )}
      </div>
      {menuOpen ? <MobileMenu signedIn={signedIn} onNavigate={() => setMenuOpen(false)} /> : null}
    </header>
  );
}
