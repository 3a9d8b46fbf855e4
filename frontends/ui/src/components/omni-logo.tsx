import { Link } from 'react-router';
import { cn } from '../lib/cn';

interface OmniLogoProps {
  /** Where the logo leads: the public site for visitors (default), /app inside the signed-in app. */
  to?: string;
  /** The link's accessible name; it says where the link goes, since the mark alone does not. */
  label?: string;
  /** The mark only (the CMS's collapsed sidebar rail); the name moves into the accessible label. */
  markOnly?: boolean;
  className?: string;
}

/**
 * The one Omni logo, used by the public site, the signed-in app and the CMS alike (issue 21 §3.14: each
 * had drawn its own). The mark is a CSS gradient disc, so it costs no image request and no icon code.
 */
export function OmniLogo({ to = '/', label = 'Omni home', markOnly = false, className }: OmniLogoProps) {
  return (
    <Link
      to={to}
      aria-label={label}
      data-testid="omni-logo"
      className={cn(
        'flex shrink-0 items-center gap-2 rounded-md text-lg font-bold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      <span
        className="inline-block h-7 w-7 shrink-0 rounded-full bg-gradient-to-br from-primary to-fuchsia-500"
        aria-hidden="true"
      />
      {markOnly ? null : 'Omni'}
    </Link>
  );
}
