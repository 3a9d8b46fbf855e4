// /api/analytics: the signed-in artist's streams and earnings (final, from statements) and estimated daily
// streams (trend reports), read from royalties for the caller only.
import { type Guards, HttpError, type PromiseClient } from '@omni/platform';
import type { royalties } from '@omni/proto';
import { analytics } from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';
import * as z from 'zod/mini';

const text = (v: unknown, max = 100) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

export function analyticsRoutes(
  client: PromiseClient<typeof royalties.RoyaltiesServiceService>,
  guards: Guards,
): Router {
  const router = createRouter();
  router.use(guards.requireUser);
  router.get('/', async (req, res) => {
    const q = req.query;
    for (const m of [q.from, q.to])
      if (m !== undefined && m !== '' && !/^\d{4}-(0[1-9]|1[0-2])$/.test(String(m)))
        throw new HttpError(400, 'Months are written YYYY-MM, like 2026-10.', 'invalid_request');
    const { analyticsJson } = await client.getAnalytics({
      ownerId: req.principal!.userId,
      from: text(q.from, 7),
      to: text(q.to, 7),
      store: text(q.store),
      territory: text(q.territory, 4),
      releaseId: text(q.release),
      trackId: text(q.track),
    });
    res.set('Cache-Control', 'no-store').json(z.parse(analytics, JSON.parse(analyticsJson)));
  });
  return router;
}
