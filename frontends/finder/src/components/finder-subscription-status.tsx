import { BILLING_MESSAGES } from '@omni/proto/api';
import {
  Button,
  formatPublished,
  openPendingTab,
  openPortalSession,
  type SubscriptionResponse,
  toast,
} from '@omni/ui';
import { useState } from 'react';

/** Spec: 'Active subscription - Next billing: {date}'; a cancelled one says when it ends instead. */
function statusLine({ subscription_end: end, cancel_at_period_end: cancelling }: SubscriptionResponse) {
  const date = end ? formatPublished(end) : '';
  if (cancelling) return date ? `Active subscription - Ends: ${date}` : 'Active subscription';
  return date ? `Active subscription - Next billing: ${date}` : 'Active subscription';
}

/** Subscribers: the state of the subscription and its management (the scan sits below it). */
export function FinderSubscriptionStatus({ subscription }: { subscription: SubscriptionResponse }) {
  const [opening, setOpening] = useState(false);
  const manage = async () => {
    const tab = openPendingTab();
    setOpening(true);
    try {
      tab.go(await openPortalSession('finder'));
    } catch (error) {
      tab.close();
      console.error('Customer portal failed to open', error);
      toast.error('Error', { description: BILLING_MESSAGES.portalFailed });
    } finally {
      setOpening(false);
    }
  };
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-4">
        <p className="font-medium text-primary" data-testid="finder-status">
          {statusLine(subscription)}
        </p>
        <Button variant="outline" size="sm" disabled={opening} onClick={() => void manage()}>
          Manage Subscription
        </Button>
      </div>
      {subscription.status === 'past_due' ? (
        <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
          Your last payment did not go through. Update your payment method to keep scanning.
        </p>
      ) : null}
    </div>
  );
}
