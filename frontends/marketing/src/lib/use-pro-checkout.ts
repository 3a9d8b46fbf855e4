import { toast } from '@omni/ui';
import { useNavigate } from 'react-router';
import type { BillingPeriod } from '../content/pricing';
import { hasStoredSession } from './session';

/**
 * What the Pro button does. Billing has no checkout endpoint yet, so nobody is charged: a signed-out
 * visitor gets the spec's 'Authentication required' toast and goes to sign up (they need an account
 * either way); a signed-in one is told plainly that checkout is not open yet. When the billing API
 * lands, the signed-in branch calls it (idle → 'Loading...' → idle, spec §4).
 */
export function useProCheckout() {
  const navigate = useNavigate();
  return (period: BillingPeriod) => {
    if (!hasStoredSession()) {
      toast.error('Authentication required', {
        description: 'Please sign up or log in to subscribe to Pro',
        announces: '/signup',
      });
      navigate('/signup');
      return;
    }
    toast.info('Pro checkout is coming soon', {
      description: `Online payment for Pro (${period}) is not open yet. You have not been charged; we will email you when it is.`,
    });
  };
}
