// Issue 21 §3.2: a renewal whose charge failed (status past_due) must show. The account stays Pro while the
// payments provider retries the charge (3 and 8 days later in the sandbox, as Stripe's schedule), and the
// banner's action is the one that fixes it: the provider's portal, where the subscriber updates the card
// (the open invoice is charged to it at once).
import type { SubscriptionResponse } from '@omni/ui';
import { AlertTriangle } from 'lucide-react';
import { ManageButton } from './subscription-card';

export const PAST_DUE_TITLE = 'Your last payment failed — update your card to keep Pro';

/** Shown on /app while the Pro subscription is past_due; nothing otherwise. */
export function PastDueBanner({ subscription }: { subscription: SubscriptionResponse | undefined }) {
  if (subscription?.status !== 'past_due') return null;
  return (
    <div
      role="alert"
      data-testid="past-due-banner"
      className="flex flex-col gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-4 sm:flex-row sm:items-center"
    >
      <AlertTriangle className="h-5 w-5 shrink-0 text-destructive" aria-hidden="true" />
      <div className="flex-1 space-y-1 text-sm">
        <p className="font-medium">{PAST_DUE_TITLE}</p>
        <p className="text-muted-foreground">
          Pro stays on while we try the charge again over the next few days; if every try fails, Pro ends.
        </p>
      </div>
      <ManageButton variant="outline">Update card</ManageButton>
    </div>
  );
}
