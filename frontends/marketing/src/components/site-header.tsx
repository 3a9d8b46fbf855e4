import { Button, buttonVariants, cn } from '@omni/ui';
import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useInBrowser } from '../lib/use-in-browser';

export const NAV_LINKS = [
  { to: '/features', label: 'Features' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/artists', label: 'Artists' },
  { to: '/labels', label: 'Labels' },
  { to: '/managers', label: 'Managers' },
  { to: '/missing-money-finder', label: 'Missing Money Finder' },
  { to: '/security', label: 'Security' },
  { to: '/support', label: 'Support' },
  { to: '/company', label: 'Company' },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-2 py-1 text-sm font-medium transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
    isActive ? 'text-foreground' : 'text-muted-foreground',
  );

/**
 * The public header (spec: nine links, logo to /, Sign In as a full page load, Get Started to
 * /signup). Below 768 px the links fold into a menu; between 768 px and 1280 px they sit on a second
 * row, since nine links and two buttons do not fit on one line there.
 */
/** The links below 768 px, under the header's top row. */
function MobileMenu({ onNavigate, className }: { onNavigate?: () => void; className?: string }) {
  return (
    <nav id="mobile-menu" aria-label="Mobile" className={cn('border-t md:hidden', className)}>
      <div className="container flex flex-col gap-1 py-4">
        {NAV_LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            className={(state) => cn(linkClass(state), 'py-2 text-base')}
            onClick={onNavigate}
          >
            {link.label}
          </NavLink>
        ))}
        <div className="mt-3 grid grid-cols-2 gap-2">
          <Button asChild variant="outline">
            <a href="/login">Sign In</a>
          </Button>
          <Button asChild>
            <Link to="/signup" onClick={onNavigate}>
              Get Started
            </Link>
          </Button>
        </div>
      </div>
    </nav>
  );
}

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const inBrowser = useInBrowser();
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
      <div className="container flex flex-wrap items-center justify-between gap-x-4 py-3 xl:flex-nowrap">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label="Omni home"
        >
          <span
            className="inline-block h-7 w-7 rounded-full bg-gradient-to-br from-primary to-fuchsia-500"
            aria-hidden="true"
          />
          Omni
        </Link>
        <nav
          aria-label="Main"
          className="order-last hidden w-full flex-wrap items-center justify-center gap-1 pt-2 md:flex xl:order-none xl:w-auto xl:pt-0"
        >
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className={linkClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <Button asChild variant="ghost" size="sm">
            {/* A full page load on purpose (spec): sign-in starts from a fresh page. */}
            <a href="/login">Sign In</a>
          </Button>
          <Button asChild size="sm">
            <Link to="/signup">Get Started</Link>
          </Button>
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
            <MobileMenu className="absolute inset-x-0 top-full bg-background shadow-sm" />
          </details>
        )}
      </div>
      {menuOpen ? <MobileMenu onNavigate={() => setMenuOpen(false)} /> : null}
    </header>
  );
}
