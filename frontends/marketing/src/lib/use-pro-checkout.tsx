import { BILLING_MESSAGES } from '@omni/proto/api';
import { isInFrame, openPendingTab, toast } from '@omni/ui';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { BillingPeriod } from '../content/pricing';
import { hasStoredSession } from './session';

/** Title of every checkout failure toast (spec §8: 'Error', destructive). */
const ERROR_TITLE = 'Error';

/**
 * Inside a frame the browser may refuse a new tab: offer a link the visitor clicks instead (spec §8). The
 * link sits under the text, full width, so a narrow toast does not squeeze either; the hint below it is
 * for the browser that blocks even that.
 */
function offerCheckoutLink(url: string) {
  toast(BILLING_MESSAGES.openInNewTab, {
    description: (
      <span className="block space-y-2">
        <span className="block">{BILLING_MESSAGES.openInNewTabDetail}</span>
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          className="block rounded-md bg-primary px-3 py-2 text-center text-sm font-medium text-primary-foreground"
        >
          Open Secure Checkout
        </a>
        <span className="block text-xs">If nothing opens, allow pop-ups for this site and click again.</span>
      </span>
    ),
    duration: 60_000,
  });
}

/**
 * What the Pro button does (spec §4, §7, §8). A signed-out visitor is told to sign up and goes to
 * /signup. A signed-in one sees 'Loading...' while checkout is created; the checkout page opens in a new
 * tab, opened blank during the click so pop-up blockers allow it (the same tab when the browser refuses
 * one). Only the webhook that follows a paid checkout makes anybody Pro: this never does.
 */
export function useProCheckout() {
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);

  const start = async (period: BillingPeriod) => {
    // Spec §6: checkout needs a session, else 'Authentication required' and go to /signup.
    const signUpFirst = () => {
      toast.error(BILLING_MESSAGES.authRequired, {
        description: BILLING_MESSAGES.authRequiredDetail,
        announces: '/signup',
      });
      navigate('/signup');
    };
    if (!hasStoredSession()) {
      signUpFirst();
      return;
    }
    if (loading) return; // one checkout per click, however fast the clicks
    const framed = isInFrame();
    const tab = framed ? null : openPendingTab();
    setLoading(true);
    // Loaded on the first click: the API client and schemas are not needed to paint the page.
    let flow: typeof import('./pro-checkout-url') | undefined;
    try {
      flow = await import('./pro-checkout-url');
      const url = await flow.proCheckoutUrl(period);
      if (!url) {
        tab?.close();
        toast.error(ERROR_TITLE, { description: BILLING_MESSAGES.noCheckoutUrl });
      } else if (framed) {
        offerCheckoutLink(url);
      } else {
        tab?.go(url);
      }
    } catch (error) {
      tab?.close();
      // The remembered session was refused (it expired, or was signed out elsewhere): no session after all.
      if (flow?.sessionRefused(error)) {
        signUpFirst();
        return;
      }
      console.error('Checkout failed', error);
      toast.error(ERROR_TITLE, {
        description: flow?.checkoutFailureMessage(error) ?? BILLING_MESSAGES.checkoutFailed,
      });
    } finally {
      setLoading(false);
    }
  };
  return { start, loading };
}
