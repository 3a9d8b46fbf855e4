import { BILLING_MESSAGES } from '@omni/proto/api';
import {
  AppHeader,
  isSigningOut,
  openPendingTab,
  refetchAfterCheckout,
  Spinner,
  toast,
  useDocumentTitle,
  useSession,
} from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { CatalogScan } from '../components/catalog-scan';
import { FinderPlanCard } from '../components/finder-plan-card';
import { FinderSubscriptionStatus } from '../components/finder-subscription-status';
import { checkoutFailure } from '../lib/checkout-failure';
import { checkFinderSubscription, finderCheckoutUrl } from '../lib/finder-billing';
import '../styles.css';

/** The page for a signed-in user: spinner first, then the subscribe card or the subscription and its scan. */
function FinderContent({ userId }: { userId: string }) {
  const [checkingOut, setCheckingOut] = useState(false);
  const { search } = useLocation();
  const subscription = useQuery({
    queryKey: ['billing', 'finder', 'subscription', userId],
    queryFn: checkFinderSubscription,
    retry: false,
    refetchInterval: refetchAfterCheckout(search),
  });
  useEffect(() => {
    if (!subscription.error) return;
    console.error('Finder subscription check failed', subscription.error);
    toast.error('Error', { description: BILLING_MESSAGES.finderCheckFailed });
  }, [subscription.error]);

  const subscribe = async () => {
    const tab = openPendingTab(); // during the click, so pop-up blockers allow it
    setCheckingOut(true);
    try {
      const url = await finderCheckoutUrl();
      if (url) tab.go(url);
      else {
        tab.close();
        toast.error('Checkout Error', { description: BILLING_MESSAGES.noCheckoutUrl });
      }
    } catch (error) {
      tab.close();
      console.error('Finder checkout failed', error);
      toast.error(checkoutFailure(error).title, { description: checkoutFailure(error).description });
    } finally {
      setCheckingOut(false);
    }
  };

  if (subscription.isPending) return <Spinner label="Checking your subscription…" />;
  if (subscription.data?.subscribed) {
    return (
      <div className="space-y-8">
        <FinderSubscriptionStatus subscription={subscription.data} />
        <CatalogScan userId={userId} />
      </div>
    );
  }
  return <FinderPlanCard busy={checkingOut} onSubscribe={() => void subscribe()} />;
}

/** /missing-money-finder: sign-in required (else /login), then the Finder subscription (spec §2, §6). */
export default function FinderPage() {
  useDocumentTitle('Missing Money Finder');
  const { status, session } = useSession();
  // Signing out from the app header goes to / (spec), not to /login.
  if (status === 'signed-out') return isSigningOut() ? null : <Navigate to="/login" replace />;
  return (
    <div className="min-h-screen bg-muted/30">
      <AppHeader />
      <main id="main" className="container py-12">
        <h1 id="page-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Missing Money Finder
        </h1>
        <p className="mt-3 max-w-2xl text-lg text-muted-foreground">
          Scan your catalog for unclaimed neighbouring-rights royalties and metadata gaps.
        </p>
        <div className="mt-8">
          {session ? <FinderContent userId={session.user.id} /> : <Spinner label="Checking your session…" />}
        </div>
      </main>
    </div>
  );
}
