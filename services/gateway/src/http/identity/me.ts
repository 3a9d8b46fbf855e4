// /api/me: who the bearer is, their profile and mail settings, and the account page's changes (password,
// email, deleting the account). The gateway checks the token first (a clear 401 without a gRPC hop);
// identity checks it again, since it answers only for the caller the token names.
//
// Deleting an account is the one step that spans services: the gateway, which already calls catalog,
// delivery and billing, asks them what the account has, refuses while something would be left half done
// (a release still in review, a subscription that would charge again), takes every delivered release down
// from its stores, and only then asks identity to delete the account. The same facts feed the preview the
// page shows before the person confirms, so what the dialog says is what happens.
import { type Guards, HttpError, type PromiseClient, parseBody, reasonOf } from '@omni/platform';
import { billing, type catalog, type delivery, type identity } from '@omni/proto';
import { emailField, passwordField } from '@omni/proto/api';
import { Router as createRouter, type Request, type Router } from 'express';
import { z } from 'zod';
import { sessionJson, userJson } from './auth';

type IdentityClient = PromiseClient<typeof identity.IdentityServiceService>;

export interface AccountClients {
  catalog: PromiseClient<typeof catalog.CatalogServiceService>;
  delivery: PromiseClient<typeof delivery.DeliveryServiceService>;
  billing: PromiseClient<typeof billing.BillingServiceService>;
}

const patchBody = z
  .object({
    displayName: z
      .string({ error: 'Display name must be text.' })
      .trim()
      .max(80, 'Display name must be at most 80 characters')
      .optional(),
    mail: z
      .object({
        releases: z.boolean({ error: 'Choose on or off for release mails.' }).optional(),
        billing: z.boolean({ error: 'Choose on or off for billing mails.' }).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

const currentPassword = z
  .string({ error: 'Enter your current password.' })
  .min(1, 'Enter your current password.')
  .max(1024);
const passwordBody = z
  .object({
    currentPassword,
    newPassword: passwordField,
  })
  .strict();
const emailBody = z
  .object({
    email: emailField,
    password: currentPassword,
  })
  .strict();
const deleteBody = z
  .object({
    password: currentPassword,
    confirmation: z.string({ error: 'Type DELETE to confirm.' }).max(100),
  })
  .strict();

const bearerOf = (req: Request) => req.headers.authorization?.slice('Bearer '.length) ?? '';

export const profileJson = (p: identity.Profile | undefined) => ({
  displayName: p?.displayName ?? '',
  mail: { releases: p?.releaseMails ?? true, billing: p?.billingMails ?? true },
});

/** Releases whose jobs wait on a review: deleting now would leave them to be approved for nobody. */
const WAITING = new Set(['draft', 'in_review']);
/** Releases some store may hold: taken down when the account goes. */
const IN_STORES = new Set(['delivering', 'live']);
const MAX_RELEASES = 200;

const PRODUCTS = [
  { product: billing.Product.PRODUCT_PRO, name: 'Pro' },
  { product: billing.Product.PRODUCT_FINDER, name: 'Missing Money Finder' },
];

/** What deleting this account would do, and what stops it now (in words the page shows as they are). */
async function deletionPlan(clients: AccountClients, userId: string) {
  const { releases } = await clients.catalog.listReleases({ ownerId: userId, limit: MAX_RELEASES });
  const waiting = releases.filter((r) => WAITING.has(r.status));
  const inStores = releases.filter((r) => IN_STORES.has(r.status));
  const blockers: string[] = [];
  if (waiting.length > 0)
    blockers.push(
      `${waiting.length === 1 ? `"${waiting[0]!.title}" is` : `${waiting.length} releases are`} still in review. Wait for the review to finish, then delete the account.`,
    );
  if (releases.length >= MAX_RELEASES)
    blockers.push(`This account has more than ${MAX_RELEASES - 1} releases: write to support to close it.`);
  for (const { product, name } of PRODUCTS) {
    const sub = await clients.billing.getSubscription({ accountId: userId, product });
    if (sub.subscribed && !sub.cancelAtPeriodEnd)
      blockers.push(
        `Your ${name} subscription renews automatically. Cancel it first (Manage Subscription), so you are not charged again.`,
      );
  }
  return { releases, inStores, blockers };
}

export function meRoutes(client: IdentityClient, guards: Guards, clients: AccountClients): Router {
  const router = createRouter();
  router.use(guards.requireUser);
  router.get('/', async (req, res) => {
    const me = await client.getMe({}, { bearer: bearerOf(req) });
    res.set('Cache-Control', 'no-store').json({ user: userJson(me.user), profile: profileJson(me.profile) });
  });
  router.patch('/', async (req, res) => {
    const body = parseBody(patchBody, req, { first: true });
    const me = await client.updateMe(
      { displayName: body.displayName, releaseMails: body.mail?.releases, billingMails: body.mail?.billing },
      { bearer: bearerOf(req) },
    );
    res.json({ user: userJson(me.user), profile: profileJson(me.profile) });
  });

  // A new password; the other sessions end and this one continues with the session returned.
  router.post('/password', async (req, res) => {
    const body = parseBody(passwordBody, req, { first: true });
    const { session } = await client.changePassword(body, { bearer: bearerOf(req) });
    res
      .set('Cache-Control', 'no-store')
      .json({ ...sessionJson(session), message: 'Password changed. Your other sessions were signed out.' });
  });

  router.post('/email', async (req, res) => {
    const body = parseBody(emailBody, req, { first: true });
    await client.requestEmailChange(
      { newEmail: body.email.toLowerCase(), password: body.password },
      { bearer: bearerOf(req) },
    );
    res.status(202).json({
      message: `We sent a link to ${body.email.toLowerCase()}. Your email changes when you follow it.`,
    });
  });

  router.get('/deletion', async (req, res) => {
    const plan = await deletionPlan(clients, req.principal!.userId);
    res.set('Cache-Control', 'no-store').json({
      releases: plan.releases.length,
      inStores: plan.inStores.length,
      blockers: plan.blockers,
    });
  });

  router.delete('/', async (req, res) => {
    const body = parseBody(deleteBody, req, { first: true });
    const bearer = bearerOf(req);
    const userId = req.principal!.userId;
    if (body.confirmation.trim() !== 'DELETE')
      throw new HttpError(400, 'Type DELETE to confirm.', 'invalid_request');
    // The password before anything is taken down: a stolen session alone cannot close the account.
    await client.confirmPassword({ password: body.password }, { bearer });
    const plan = await deletionPlan(clients, userId);
    if (plan.blockers.length > 0) throw new HttpError(409, plan.blockers.join(' '), 'account_in_use');
    for (const release of plan.inStores) {
      try {
        await clients.delivery.takeDown({ releaseId: release.id, stores: [], callerId: userId });
      } catch (err) {
        // Every store already took it down or never had it: nothing left to remove.
        if (reasonOf(err) !== 'nothing_to_take_down') throw err;
      }
    }
    await client.deleteAccount(body, { bearer });
    res.json({
      message:
        plan.inStores.length > 0
          ? `Your account is deleted. ${plan.inStores.length} release${plan.inStores.length === 1 ? ' is' : 's are'} being taken down from every store.`
          : 'Your account is deleted.',
      takenDown: plan.inStores.length,
    });
  });
  return router;
}
