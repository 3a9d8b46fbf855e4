import { formatPrice, PLANS } from '@omni/proto/api';
import { Button, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@omni/ui';
import { Check } from 'lucide-react';

/** Spec: the four things a Finder subscription buys. */
const FINDER_BULLETS = [
  'Scan your SoundExchange, PPL and IMPEL registrations',
  'Identify metadata gaps and missing contributors',
  'Estimate the value at risk',
  'Get actionable recommendations',
] as const;

const PRICE = `${formatPrice(PLANS.finder_monthly.amount)}/month`;

/** Non-subscribers: what the Finder costs and does, and 'Subscribe for $99/month'. */
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
      <CardContent>
        <ul className="space-y-2 text-sm">
          {FINDER_BULLETS.map((item) => (
            <li key={item} className="flex gap-2">
              <Check className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
              {item}
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        <Button className="w-full" disabled={busy} aria-busy={busy} onClick={onSubscribe}>
          {busy ? 'Loading...' : `Subscribe for ${PRICE}`}
        </Button>
      </CardFooter>
    </Card>
  );
}
