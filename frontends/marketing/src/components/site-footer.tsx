import { Link } from 'react-router';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t bg-muted/30">
      <div className="container flex flex-col gap-4 py-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
        <p>© {year} Omni. 100% of royalties to artists.</p>
        <nav aria-label="Footer" className="flex flex-wrap gap-4">
          <Link to="/music" className="hover:text-foreground">
            Music
          </Link>
          <Link to="/videos" className="hover:text-foreground">
            Videos
          </Link>
          <Link to="/careers" className="hover:text-foreground">
            Careers
          </Link>
          <Link to="/press" className="hover:text-foreground">
            Press
          </Link>
          <Link to="/support" className="hover:text-foreground">
            Support
          </Link>
        </nav>
      </div>
    </footer>
  );
}
