import { formatPrice, PLANS } from '@omni/proto/api';
import { Button, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@omni/ui';
import { Check, Clock } from 'lucide-react';

/**
 * What a Finder subscription buys today: only checks a scan really runs. Registration checks with the
 * collecting societies do not run (no registry can be reached from Omni yet), so they are not sold here as
 * included: they are said to be coming, apart from what the $99 pays for (issue 21 §3.13).
 */
const FINDER_BULLETS = [
  'Identify metadata gaps and missing contributors',
  'Check ISRC, UPC, ISWC and IPI codes, and find ISRCs used on two recordings',
  'Estimate the value at risk from the play counts you upload',
  'Get actionable recommendations for each track, with a CSV export',
] as const;

/** Sold as coming, never as included. */
const COMING =
  'Checking your SoundExchange, PPL and IMPEL registrations. Omni cannot reach these registries yet, so scans do not tell you whether your recordings and songs are registered with them; we will say here when they do.';

const PRICE = `${formatPrice(PLANS.finder_monthly.amount)}/month`;

/** Non-subscribers: what the Finder costs, what it does today and what is coming, and 'Subscribe for $99/month'. */
export function FinderPlanCard({ busy, onSubscribe }: { busy: boolean; onSubscribe: () => void }) {
  return (
    <Card className="max-w-xl border-primary/40" data-testid="finder-plan">
      <CardHeader>
        <CardTitle>Subscribe to Missing Money Finder</CardTitle>
        <CardDescription>
          <span className="text-3xl font-bold text-foreground">
            {formatPrice(PLANS.finder_monthly.amount)}
          </span>
          /month, cancel any time.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div>
          <h3 className="text-sm font-medium">Included</h3>
          <ul className="mt-2 space-y-2 text-sm" data-testid="finder-included">
            {FINDER_BULLETS.map((item) => (
              <li key={item} className="flex gap-2">
                <Check className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-md border bg-muted/40 p-3" data-testid="finder-coming">
          <h3 className="flex items-center gap-2 text-sm font-medium">
            <Clock className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            Coming later, not included yet
          </h3>
          <p className="mt-1 text-sm text-muted-foreground">{COMING}</p>
        </div>
      </CardContent>
      <CardFooter>
        <Button className="w-full" disabled={busy} aria-busy={busy} onClick={onSubscribe}>
          {busy ? 'Loading...' : `Subscribe for ${PRICE}`}
        </Button>
      </CardFooter>
    </Card>
  );
}
