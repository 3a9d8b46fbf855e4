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
import { Check } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { SALES_EMAIL } from '../content/facts';
import {
  type BillingPeriod,
  ENTERPRISE_FEATURES,
  FREE_FEATURES,
  PRO_FEATURES,
  PRO_PRICE,
} from '../content/pricing';
import { useProCheckout } from '../lib/use-pro-checkout';

const SALES_MAILTO = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Omni Enterprise enquiry')}`;

function FeatureBullets({ items }: { items: readonly string[] }) {
  return (
    <ul className="space-y-2 text-sm">
      {items.map((item) => (
        <li key={item} className="flex gap-2">
          <Check className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
          {item}
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
          <Card className="flex h-full flex-col">
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
              <CardDescription>Analytics, splits and payouts for artists who release often.</CardDescription>
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
            <CardContent className="flex-1">
              <FeatureBullets items={PRO_FEATURES} />
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
