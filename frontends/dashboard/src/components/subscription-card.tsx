import { formatPrice, PLANS } from '@omni/proto/api';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatPublished,
  Spinner,
  type SubscriptionResponse,
} from '@omni/ui';
import { AlertTriangle, Crown } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { manageSubscription } from '../lib/manage-subscription';

/** The header's badge for subscribers (spec: "Header with Pro badge when subscribed"). */
export function ProBadge() {
  return (
    <Badge data-testid="pro-badge" className="gap-1">
      <Crown className="h-3 w-3" aria-hidden="true" />
      Pro
    </Badge>
  );
}

function ManageButton({ variant }: { variant?: 'default' | 'outline' }) {
  const [opening, setOpening] = useState(false);
  return (
    <Button
      variant={variant}
      disabled={opening}
      onClick={() => {
        setOpening(true);
        void manageSubscription('pro').finally(() => setOpening(false));
      }}
    >
      Manage Subscription
    </Button>
  );
}

/** Non-subscribers: 'Upgrade to Pro', to the pricing page. */
function UpgradeCard() {
  return (
    <Card className="border-primary/40 bg-primary/5" data-testid="subscription-card">
      <CardHeader className="flex flex-row items-center gap-3 space-y-0">
        <Crown className="h-6 w-6 text-primary" aria-hidden="true" />
        <div className="space-y-1.5">
          <CardTitle>Upgrade to Pro</CardTitle>
          {/* Issue 21 §3.13: Pro's features are not built yet; say so rather than sell them. */}
          <CardDescription>
            Analytics, splits and payouts, collaborator invitations and AI copy are coming soon to Pro (
            {formatPrice(PLANS.pro_monthly.amount)}/month); today it adds nothing to Free. See what ships on
            the pricing page.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <Button asChild>
          <Link to="/pricing">Upgrade to Pro</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** What a subscriber reads under the title: when Pro renews, or until when it lasts once cancelled. */
function periodText({ subscription_end: end, cancel_at_period_end: cancelling }: SubscriptionResponse) {
  const date = end ? formatPublished(end) : '';
  if (cancelling) {
    return date
      ? `Your subscription is cancelled: Pro stays on until ${date}.`
      : 'Your subscription is cancelled: Pro stays on until the end of the period.';
  }
  return date ? `Renews on ${date}.` : 'Your Pro features are on.';
}

/**
 * A renewal payment failed: the account stays Pro while Stripe retries (over 7 days), and the subscriber
 * is asked to fix the payment method before access lapses.
 */
export function PastDueBanner() {
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-4 sm:flex-row sm:items-center"
    >
      <AlertTriangle className="h-5 w-5 shrink-0 text-destructive" aria-hidden="true" />
      <p className="flex-1 text-sm">
        Your last payment for Pro did not go through. Update your payment method to keep Pro; we will try the
        charge again over the next few days.
      </p>
      <ManageButton variant="outline" />
    </div>
  );
}

/**
 * Spec: non-subscribers see 'Upgrade to Pro', subscribers 'Pro Subscription Active' with 'Manage
 * Subscription'; while the check runs (6 s at most) a quiet placeholder holds the place.
 */
export function SubscriptionCard({ subscription }: { subscription: SubscriptionResponse | undefined }) {
  if (!subscription) {
    return (
      <Card data-testid="subscription-card">
        <CardContent className="pt-6">
          <Spinner label="Checking your plan…" />
        </CardContent>
      </Card>
    );
  }
  if (!subscription.subscribed) return <UpgradeCard />;
  return (
    <Card className="border-primary/40 bg-primary/5" data-testid="subscription-card">
      <CardHeader className="flex flex-row items-center gap-3 space-y-0">
        <Crown className="h-6 w-6 text-primary" aria-hidden="true" />
        <div className="space-y-1.5">
          <CardTitle>Pro Subscription Active</CardTitle>
          <CardDescription>{periodText(subscription)}</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <ManageButton />
      </CardContent>
    </Card>
  );
}
