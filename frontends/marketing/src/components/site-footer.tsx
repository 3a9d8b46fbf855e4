import { Link } from 'react-router';
import { STORE_COUNT } from '../content/facts';

const COLUMNS = [
  {
    title: 'Product',
    links: [
      { to: '/features', label: 'Features' },
      { to: '/pricing', label: 'Pricing' },
      { to: '/missing-money-finder', label: 'Missing Money Finder' },
      { to: '/demo', label: 'Book a demo' },
    ],
  },
  {
    title: 'For you',
    links: [
      { to: '/artists', label: 'Artists' },
      { to: '/labels', label: 'Labels' },
      { to: '/managers', label: 'Managers' },
      { to: '/music', label: 'Music' },
      { to: '/videos', label: 'Videos' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/company', label: 'About' },
      { to: '/careers', label: 'Careers' },
      { to: '/press', label: 'Press' },
      { to: '/contact-sales', label: 'Contact sales' },
    ],
  },
  {
    title: 'Help',
    links: [
      { to: '/support', label: 'Support centre' },
      { to: '/security', label: 'Security & trust' },
      { to: '/contact-sales?type=dpa', label: 'Request a DPA' },
    ],
  },
] as const;

export function SiteFooter() {
  // Marked so the gateway can write the current year into build-time HTML served in a later year.
  const year = new Date().getFullYear();
  return (
    <footer className="border-t bg-muted/40">
      <div className="container grid gap-8 py-12 sm:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-1">
          <p className="text-lg font-bold">Omni</p>
          <p className="mt-2 text-sm text-muted-foreground">
            Music distribution to {STORE_COUNT} stores for independent artists, labels and managers. 100% of
            royalties to artists.
          </p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={column.title} className="text-sm">
            <h2 className="font-semibold">{column.title}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-muted-foreground hover:text-foreground">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t">
        <p className="container py-6 text-sm text-muted-foreground" data-testid="footer-copyright">
          © <span data-current-year="">{year}</span> Omni. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
