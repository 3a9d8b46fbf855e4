import type { ContributorLink } from '@omni/proto/api';
import { formatTable } from '@omni/ui';

/** What the link lets the contributor do: for which page, how many submissions are left, until when. */
export function LinkSummary({ link }: { link: ContributorLink }) {
  return (
    <section
      aria-label="Upload link"
      data-testid="link-summary"
      className="rounded-lg border bg-background p-6"
    >
      <p className="text-sm text-muted-foreground">You were invited to contribute to</p>
      <p className="mt-1 text-xl font-semibold">{link.pageTitle || link.pageSlug}</p>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Uses left</dt>
          <dd className="font-medium" data-testid="link-uses-left">
            {link.usesLeft}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Expires</dt>
          <dd className="font-medium">
            <time dateTime={link.expiresAt}>{formatTable(link.expiresAt)}</time>
          </dd>
        </div>
      </dl>
    </section>
  );
}
