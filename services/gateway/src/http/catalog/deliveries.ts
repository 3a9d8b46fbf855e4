// A release's deliveries, for its owner or an admin (catalog decides who may see it, first): the per-store
// status, the live stream of it, and the DDEX message sent to each store.
import { type Guards, type PromiseClient, parseParams, parseQuery } from '@omni/platform';
import type { catalog, delivery } from '@omni/proto';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';
import { type ReleaseFacts, releaseDeliveryJson } from './delivery-json';
import type { DeliveryStreams } from './delivery-stream';
import { type CatalogClient, visibleRelease } from './release-access';

export type DeliveryClient = PromiseClient<typeof delivery.DeliveryServiceService>;

const storeParams = z
  .object({
    store: z.string().regex(/^[a-z0-9_]{1,40}$/, 'Store keys are lower-case letters, digits and _.'),
  })
  .passthrough();

/** `?after=resubmit`: the page has just resubmitted the release and waits for it to be in review again. */
const streamQuery = z.object({ after: z.enum(['resubmit']).optional() }).strict();

export function deliveryRoutes(
  catalogClient: CatalogClient,
  deliveryClient: DeliveryClient,
  streams: DeliveryStreams,
  guards: Guards,
): Router {
  const router = createRouter();
  router.use(guards.requireUser);

  router.get('/:id/deliveries', async (req, res) => {
    const release = await visibleRelease(catalogClient, req);
    const answer = await deliveryClient.listJobs({ releaseId: release.id });
    res.set('Cache-Control', 'no-store').json(releaseDeliveryJson(release.id, answer, factsOf(release)));
  });

  router.get('/:id/deliveries/stream', async (req, res) => {
    const release = await visibleRelease(catalogClient, req);
    const { after } = parseQuery(streamQuery, req);
    await streams.open(res, release.id, req.principal!.userId, {
      ...factsOf(release),
      resubmitted: after === 'resubmit',
    });
  });

  router.get('/:id/deliveries/:store/ern', async (req, res) => {
    const { store } = parseParams(storeParams, req);
    const release = await visibleRelease(catalogClient, req);
    const ern = await deliveryClient.getErn({ releaseId: release.id, target: store });
    // The UPC and the store key are digits, letters and _: safe in a quoted file name as they are.
    res
      .set({
        'Content-Type': 'application/xml; charset=utf-8',
        'Content-Disposition': `attachment; filename="${release.upc || release.id}_${store}.xml"`,
        'Cache-Control': 'no-store',
      })
      .send(ern.xml);
  });

  return router;
}

/** How the stream reads a release: the same answer as GET /:id/deliveries. */
export const loadReleaseDelivery =
  (client: DeliveryClient) => async (releaseId: string, facts: ReleaseFacts) =>
    releaseDeliveryJson(releaseId, await client.listJobs({ releaseId }), facts);

const factsOf = (release: catalog.Release): ReleaseFacts => ({
  expectedJobs: release.stores.length,
});
