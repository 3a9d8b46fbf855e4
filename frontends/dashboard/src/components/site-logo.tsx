import { Link } from 'react-router';

export function SiteLogo() {
  return (
    <Link to="/" className="flex items-center gap-2 font-bold tracking-tight" aria-label="Omni home">
      <span className="inline-block h-6 w-6 rounded-full bg-primary" aria-hidden="true" />
      Omni
    </Link>
  );
}
