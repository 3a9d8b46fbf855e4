// Why a call failed, in words a program can switch on. A service fails a call with a reason; the reason
// travels in the status's trailing metadata under REASON_KEY, beside the message written for a person, and
// the caller's one mapping (`httpErrorFromGrpc`) turns it into the HTTP error code. So no caller ever
// reads a sentence to learn what happened, and each sentence is written once, by the service that owns it.
import { status } from '@grpc/grpc-js';

export const REASON_KEY = 'omni-reason';

/**
 * Every reason, with the gRPC status it is sent with and the `code` the HTTP API answers with (the web app
 * switches on some of these). A reason is named for what happened; the code is the public contract, which
 * several reasons may share.
 */
export const REASONS = {
  /** Input that breaks a rule; the message names the rule. */
  invalid_request: { status: status.INVALID_ARGUMENT, code: 'invalid_request' },
  /** Wrong password or unknown email: the caller must not learn which. */
  invalid_credentials: { status: status.UNAUTHENTICATED, code: 'invalid_credentials' },
  email_not_confirmed: { status: status.PERMISSION_DENIED, code: 'email_not_confirmed' },
  /**
   * A signed-in person's current password, asked again before an account change, was wrong. Not 401: the
   * session is fine, and the web app would refresh it and retry on a 401.
   */
  wrong_password: { status: status.PERMISSION_DENIED, code: 'wrong_password' },
  email_taken: { status: status.ALREADY_EXISTS, code: 'email_taken' },
  /** A refresh token that is expired, revoked or unknown, or a session whose account is gone. */
  session_expired: { status: status.UNAUTHENTICATED, code: 'session_expired' },
  /** A verification, magic or reset link that is expired, spent or unknown. */
  invalid_link: { status: status.INVALID_ARGUMENT, code: 'invalid_link' },
  /** A Google sign-in handoff code that is expired, spent or unknown. */
  invalid_handoff: { status: status.INVALID_ARGUMENT, code: 'invalid_handoff' },
  /** The identity provider refused an authorization code from its own login page. */
  external_sign_in_failed: { status: status.UNAUTHENTICATED, code: 'unauthenticated' },
  /** No bearer, or one that does not verify. */
  sign_in_required: { status: status.UNAUTHENTICATED, code: 'unauthenticated' },
  /** The configured provider cannot do this at all. */
  not_supported: { status: status.FAILED_PRECONDITION, code: 'failed_precondition' },
  /** No release with this id for this caller (someone else's release is not found either). */
  release_not_found: { status: status.NOT_FOUND, code: 'not_found' },
  /** Contributor upload links (cms): unknown or malformed token, revoked, expired, used up, no files. */
  link_not_found: { status: status.NOT_FOUND, code: 'link_not_found' },
  // A link that existed and no longer works is gone for good: HTTP 410, which no gRPC status maps to.
  link_revoked: { status: status.FAILED_PRECONDITION, code: 'link_revoked', http: 410 },
  link_expired: { status: status.FAILED_PRECONDITION, code: 'link_expired', http: 410 },
  link_used_up: { status: status.RESOURCE_EXHAUSTED, code: 'link_used_up', http: 410 },
  link_forbids_files: { status: status.PERMISSION_DENIED, code: 'link_forbids_files' },
  /** A link with as many files signed and not yet submitted as its remaining uses allow (cms). */
  link_uploads_waiting: { status: status.FAILED_PRECONDITION, code: 'link_uploads_waiting' },
  /** Approving or rejecting an asset that is no longer pending. */
  already_moderated: { status: status.FAILED_PRECONDITION, code: 'already_moderated' },
  /** Billing: a price id that is not one of the configured plans of that product. */
  unknown_price: { status: status.INVALID_ARGUMENT, code: 'unknown_price' },
  /** Billing: a checkout for a product the account already has (one subscription per product). */
  already_subscribed: { status: status.ALREADY_EXISTS, code: 'already_subscribed' },
  /** Billing: a portal for an account that has never checked out (no provider customer). */
  no_billing_account: { status: status.NOT_FOUND, code: 'no_billing_account' },
  /** Billing: a webhook whose signature does not verify or is older than the tolerance. */
  bad_signature: { status: status.INVALID_ARGUMENT, code: 'bad_signature' },
  /** Finder: a scan asked for by an account without an active Finder subscription. */
  subscription_required: { status: status.PERMISSION_DENIED, code: 'subscription_required' },
  /** Finder: no scan with this id for this account (or none yet). */
  scan_not_found: { status: status.NOT_FOUND, code: 'scan_not_found' },
  /** Delivery: approving or rejecting a release that is not waiting for review. */
  release_not_in_review: { status: status.FAILED_PRECONDITION, code: 'not_in_review' },
  /** Catalog: resubmitting a release nobody rejected. */
  release_not_rejected: { status: status.FAILED_PRECONDITION, code: 'not_rejected' },
  /** Catalog: editing a release taken down from every store (it must be released again first). */
  release_taken_down: { status: status.FAILED_PRECONDITION, code: 'taken_down' },
  /** Catalog, delivery: deleting a release that stores were sent (or an admin approved). */
  release_delivered: { status: status.FAILED_PRECONDITION, code: 'release_delivered' },
  /** Delivery: a store key the release is not delivered to. */
  store_not_in_release: { status: status.NOT_FOUND, code: 'not_found' },
  /** Delivery: a takedown where no chosen store has the release. */
  nothing_to_take_down: { status: status.FAILED_PRECONDITION, code: 'nothing_to_take_down' },
  /** Delivery: a re-release where no chosen store had the release taken down. */
  nothing_to_rerelease: { status: status.FAILED_PRECONDITION, code: 'nothing_to_rerelease' },
  /** Delivery: no DDEX message made yet for this release and store. */
  ern_not_found: { status: status.NOT_FOUND, code: 'not_found' },
  /** Delivery: replaying a job that is not dead-lettered. */
  dead_letter_not_found: { status: status.NOT_FOUND, code: 'not_found' },
  /** Delivery: the store simulator asked for outside the embedded mode. */
  simulator_unavailable: { status: status.FAILED_PRECONDITION, code: 'failed_precondition' },
} as const satisfies Record<string, { status: status; code: string; http?: number }>;

export type Reason = keyof typeof REASONS;

export const isReason = (value: unknown): value is Reason =>
  typeof value === 'string' && Object.hasOwn(REASONS, value);
