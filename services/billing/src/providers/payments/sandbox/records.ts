// What the sandbox keeps in its own documents store. Each record holds the object exactly as Stripe would
// return it (`object`) beside the few fields the sandbox needs to run it; webhook events carry copies.
import type { Doc } from '@omni/platform';
import type Stripe from 'stripe';
import type { Interval } from './calendar';

export interface SandboxPrice {
  product: 'pro' | 'finder';
  interval: Interval;
  amount: number;
}

export interface CustomerDoc extends Doc {
  _id: string;
  object: Stripe.Customer;
  /** The card saved at checkout: whether its later charges succeed (4000 0000 0000 0341 fails them). */
  card?: { last4: string; renewals: 'succeed' | 'fail' };
}

export interface SessionDoc extends Doc {
  _id: string;
  object: Stripe.Checkout.Session;
  price: string;
  /** Becomes the subscription's metadata (Checkout's subscription_data.metadata). */
  metadata: Record<string, string>;
  /** Set while the 3-D Secure step is open, so the authentication page knows which card it confirms. */
  authenticating?: { last4: string; renewals: 'succeed' | 'fail' };
}

export interface SubscriptionDoc extends Doc {
  _id: string;
  customer: string;
  object: Stripe.Subscription;
  price: string;
  /** Periods since the billing cycle anchor; the current one ends at periodEnd(anchor, interval, periods). */
  periods: number;
  /** Present while an invoice is unpaid (past_due): Stripe's retries. */
  dunning?: { invoice: string; attempts: number; nextAttempt: number };
  /** 'live' until canceled, so the clock only walks subscriptions that can still change. */
  state: 'live' | 'ended';
}

export interface InvoiceDoc extends Doc {
  _id: string;
  subscription: string;
  object: Stripe.Invoice;
}

export interface PortalSessionDoc extends Doc {
  _id: string;
  customer: string;
  object: Stripe.BillingPortal.Session;
}

export interface IdempotencyDoc extends Doc {
  _id: string;
  result: string;
  created: number;
}

export interface OutboxDoc extends Doc {
  _id: string;
  seq: number;
  /** Events of one key (a subscription) are delivered in order; a failing one holds back those after it. */
  key: string;
  type: string;
  /** The event's JSON exactly as sent; redeliveries send the same bytes with a fresh signature. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** Real time (ms) of the next attempt. */
  nextAttemptAt: number;
  createdAt: number;
  lastError?: string;
}
