import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  Label,
  Switch,
} from '@omni/ui';
import { Check, Clock } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { SALES_EMAIL } from '../content/facts';
import {
  type BillingPeriod,
  ENTERPRISE_FEATURES,
  FREE_FEATURES,
  type PlanFeature,
  PRO_FEATURES,
  PRO_PRICE,
  PRO_TODAY,
} from '../content/pricing';
import { useProCheckout } from '../lib/use-pro-checkout';

const SALES_MAILTO = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Omni Enterprise enquiry')}`;

/** A plan's lines: a tick for what is included today, a clock and 'Coming soon' for what is not built yet. */
function FeatureBullets({ items }: { items: readonly PlanFeature[] }) {
  return (
    <ul className="space-y-2 text-sm">
      {items.map(({ text, comingSoon }) => (
        <li key={text} className="flex gap-2" data-coming-soon={comingSoon ? 'true' : undefined}>
          {comingSoon ? (
            <Clock className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          ) : (
            <Check className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
          )}
          <span className={comingSoon ? 'text-muted-foreground' : undefined}>
            {text}
            {comingSoon ? (
              <Badge variant="outline" className="ml-2 whitespace-nowrap align-middle text-[0.7rem]">
                Coming soon
              </Badge>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Free, Pro (monthly/annual toggle) and Enterprise cards. `headingLevel` keeps the outline right. */
export function PricingPlans() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const checkout = useProCheckout();
  const switchId = useId();
  const pro = PRO_PRICE[period];

  return (
    <div>
      <div className="flex items-center justify-center gap-3 text-sm font-medium">
        <span
          className={period === 'monthly' ? 'text-foreground' : 'text-muted-foreground'}
          aria-hidden="true"
        >
          Monthly
        </span>
        <Switch
          id={switchId}
          checked={period === 'annual'}
          onCheckedChange={(annual) => setPeriod(annual ? 'annual' : 'monthly')}
          aria-label="Bill annually"
        />
        <Label
          htmlFor={switchId}
          className={period === 'annual' ? 'text-foreground' : 'text-muted-foreground'}
        >
          Annual <span className="text-primary">(save on Pro)</span>
        </Label>
      </div>

      <ul className="mt-10 grid gap-6 lg:grid-cols-3">
        <li>
          <Card className="flex h-full flex-col" data-testid="free-plan">
            <CardHeader>
              <CardTitle>Free</CardTitle>
              <CardDescription>Release music and get paid, at no cost.</CardDescription>
              <p className="pt-4">
                <span className="text-4xl font-bold">$0</span>{' '}
                <span className="text-muted-foreground">forever</span>
              </p>
            </CardHeader>
            <CardContent className="flex-1">
              <FeatureBullets items={FREE_FEATURES} />
            </CardContent>
            <CardFooter>
              <Button asChild variant="outline" className="w-full">
                <Link to="/signup">Start for free</Link>
              </Button>
            </CardFooter>
          </Card>
        </li>
        <li>
          <Card className="relative flex h-full flex-col border-primary shadow-md" data-testid="pro-plan">
            <CardHeader>
              <div className="flex items-center justify-between gap-2">
                <CardTitle>Pro</CardTitle>
                <Badge>Most popular</Badge>
              </div>
              <CardDescription>
                For artists who release often: splits and payouts as they ship.
              </CardDescription>
              <p className="pt-4" aria-live="polite" data-testid="pro-price">
                <span className="text-4xl font-bold">{pro.amount}</span>{' '}
                <span className="text-muted-foreground">{pro.per}</span>
                {pro.note ? (
                  <Badge variant="secondary" className="ml-2 align-middle text-primary">
                    {pro.note}
                  </Badge>
                ) : null}
              </p>
            </CardHeader>
            <CardContent className="flex-1 space-y-4">
              <FeatureBullets items={PRO_FEATURES} />
              <p className="rounded-md bg-muted p-3 text-sm" data-testid="pro-today">
                {PRO_TODAY}
              </p>
            </CardContent>
            <CardFooter>
              <Button
                className="w-full"
                disabled={checkout.loading}
                aria-busy={checkout.loading}
                onClick={() => void checkout.start(period)}
              >
                {checkout.loading ? 'Loading...' : 'Get Pro'}
              </Button>
            </CardFooter>
          </Card>
        </li>
        <li>
          <Card className="flex h-full flex-col">
            <CardHeader>
              <CardTitle>Enterprise</CardTitle>
              <CardDescription>For labels and distributors with many artists.</CardDescription>
              <p className="pt-4">
                <span className="text-4xl font-bold">Custom</span>
              </p>
            </CardHeader>
            <CardContent className="flex-1">
              <FeatureBullets items={ENTERPRISE_FEATURES} />
            </CardContent>
            <CardFooter>
              <Button asChild variant="outline" className="w-full">
                <a href={SALES_MAILTO}>Contact sales</a>
              </Button>
            </CardFooter>
          </Card>
        </li>
      </ul>
    </div>
  );
}
