// Deliveries an admin must act on: the dead-letter list (jobs whose retries are spent) with replay, and
// (embedded mode) the store simulator's behaviour for tests and demos. Delivery refuses the simulator
// outside the embedded mode itself. Admins only.
import { type Guards, notFound, parseBody, parseParams, parseQuery } from '@omni/platform';
import { DELIVERY_MESSAGES, isReleaseId, simulatorBody } from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';
import type { DeliveryClient } from '../catalog/deliveries';
import { deadLetterJson, jobJson } from '../catalog/delivery-json';

const storeKey = z.string().regex(/^[a-z0-9_]{1,40}$/, 'Store keys are lower-case letters, digits and _.');
const replayParams = z.object({ releaseId: z.string().min(1).max(100), store: storeKey });
const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) }).strict();

export function adminDeliveryRoutes(deliveryClient: DeliveryClient, guards: Guards): Router {
  const router = createRouter();
  router.use(['/deliveries', '/store-simulator'], guards.requireAdmin, (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/deliveries/dead-letters', async (req, res) => {
    const { limit } = parseQuery(listQuery, req);
    const { jobs } = await deliveryClient.listDeadLetters({ limit });
    res.json({ items: jobs.map(deadLetterJson) });
  });

  router.post('/deliveries/dead-letters/:releaseId/:store/replay', async (req, res) => {
    const { releaseId, store } = parseParams(replayParams, req);
    if (!isReleaseId(releaseId)) throw notFound(DELIVERY_MESSAGES.deadLetterNotFound);
    const { job } = await deliveryClient.replayDeadLetter({
      releaseId,
      target: store,
      adminId: req.principal!.userId,
    });
    res.json({ job: job ? jobJson(job) : null, message: DELIVERY_MESSAGES.replayed });
  });

  router.post('/store-simulator/:store', async (req, res) => {
    const { store } = parseParams(z.object({ store: storeKey }), req);
    const body = parseBody(simulatorBody, req, { first: true });
    await deliveryClient.configureSimulator({ target: store, ...body });
    res.status(204).end();
  });

  return router;
}
