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
import { Crown } from 'lucide-react';
import { type ReactNode, useState } from 'react';
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

/** Opens the provider's portal in a new tab ('Manage Subscription' unless told otherwise). */
export function ManageButton({
  variant,
  children = 'Manage Subscription',
}: {
  variant?: 'default' | 'outline';
  children?: ReactNode;
}) {
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
      {children}
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
            Splits and payouts, collaborator invitations and AI copy are coming soon to Pro (
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

/** Pro while the provider retries a failed renewal charge (status past_due). */
function PastDueCard() {
  return (
    <Card className="border-destructive/50" data-testid="subscription-card">
      <CardHeader className="flex flex-row items-center gap-3 space-y-0">
        <Crown className="h-6 w-6 text-destructive" aria-hidden="true" />
        <div className="space-y-1.5">
          <CardTitle>Pro Subscription Payment Failed</CardTitle>
          <CardDescription>
            Your renewal payment did not go through. Pro stays on while we retry; update your card to keep it.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <ManageButton />
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
  // A failed renewal is not "Active" and does not "renew on" anything: the banner above says what to do.
  if (subscription.status === 'past_due') return <PastDueCard />;
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
