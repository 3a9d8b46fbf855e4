// What billing's use cases work with: its repositories, the outbox, the plans of this configuration and
// the payments provider (absent when none is configured in this build: checkout and portal then refuse).
import type { DocumentStore, Logger, Outbox } from '@omni/platform';
import type { PlanBook } from '../domain/plans';
import type { PaymentsProvider } from '../providers/payments/port';
import type { VerifyWebhook } from '../providers/payments/signature';
import type { CheckoutAttemptsRepository } from '../store/checkout-attempts';
import type { CustomersRepository } from '../store/customers';
import type { SubscriptionsRepository } from '../store/subscriptions';
import type { WebhookEventsRepository } from '../store/webhook-events';

export interface BillingContext {
  store: DocumentStore;
  customers: CustomersRepository;
  subscriptions: SubscriptionsRepository;
  webhookEvents: WebhookEventsRepository;
  attempts: CheckoutAttemptsRepository;
  outbox: Outbox;
  plans: PlanBook;
  payments: () => PaymentsProvider;
  /** Checks a webhook against the endpoint's secret (billing alone holds it). */
  verifyWebhook: VerifyWebhook;
  logger: Logger;
}
