import { BILLING_MESSAGES } from '@omni/proto/api';
import { type BillingProduct, openPendingTab, openPortalSession, toast } from '@omni/ui';

/**
 * customer-portal (spec §7): the subscription's management page, in a new tab opened blank during the
 * click (pop-up blockers allow that); on failure the blank tab closes and the spec's toast says so.
 */
export async function manageSubscription(product: BillingProduct = 'pro'): Promise<void> {
  const tab = openPendingTab();
  try {
    tab.go(await openPortalSession(product));
  } catch (error) {
    tab.close();
    console.error('Customer portal failed to open', error);
    toast.error('Error', { description: BILLING_MESSAGES.portalFailed });
  }
}
