// /api/me: who the bearer is and their profile. The gateway checks the token first (a clear 401 without a
// gRPC hop); identity checks it again, since it answers only for the caller the token names.
import { type Guards, type PromiseClient, parseBody } from '@omni/platform';
import type { identity } from '@omni/proto';
import { Router as createRouter, type Request, type Router } from 'express';
import { z } from 'zod';
import { userJson } from './auth';

const patchBody = z
  .object({
    displayName: z
      .string({ error: 'Display name must be text.' })
      .trim()
      .max(80, 'Display name must be at most 80 characters'),
  })
  .strict();

const bearerOf = (req: Request) => req.headers.authorization?.slice('Bearer '.length) ?? '';

export function meRoutes(
  client: PromiseClient<typeof identity.IdentityServiceService>,
  guards: Guards,
): Router {
  const router = createRouter();
  router.use(guards.requireUser);
  router.get('/', async (req, res) => {
    const me = await client.getMe({}, { bearer: bearerOf(req) });
    res
      .set('Cache-Control', 'no-store')
      .json({ user: userJson(me.user), profile: { displayName: me.profile?.displayName ?? '' } });
  });
  router.patch('/', async (req, res) => {
    const { displayName } = parseBody(patchBody, req, { first: true });
    const me = await client.updateMe({ displayName }, { bearer: bearerOf(req) });
    res.json({ user: userJson(me.user), profile: { displayName: me.profile?.displayName ?? '' } });
  });
  return router;
}
