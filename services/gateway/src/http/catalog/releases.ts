// /api/releases and /api/songs: an artist's releases. Catalog owns releases and who may see them;
// delivery reports each release's per-store jobs. Every route needs a signed-in user; someone else's
// release answers 404 (catalog decides), so its existence is not revealed.
import {
  type Guards,
  type Logger,
  notFound,
  type PromiseClient,
  parseParams,
  parseQuery,
} from '@omni/platform';
import type { catalog, delivery } from '@omni/proto';
import { isReleaseId } from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';
import { parseReleaseBody, parseSongBody } from './release-body';
import { DELIVERY_UNKNOWN, type DeliveryJson, deliveryJson, NO_JOBS_YET, releaseJson } from './release-json';

type CatalogClient = PromiseClient<typeof catalog.CatalogServiceService>;
type DeliveryClient = PromiseClient<typeof delivery.DeliveryServiceService>;

const idParams = z.object({ id: z.string().min(1).max(100) });
const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).optional() }).strict();

/** Per-store status of releases. A delivery outage degrades the page (`unavailable`), it does not break it. */
export function deliveryLookup(client: DeliveryClient, logger: Logger) {
  return {
    async forRelease(releaseId: string): Promise<DeliveryJson> {
      try {
        const res = await client.listJobs({ releaseId });
        return deliveryJson(res.summary, res.jobs);
      } catch (err) {
        logger.warn({ err, releaseId }, 'delivery did not answer; release shown without its jobs');
        return DELIVERY_UNKNOWN;
      }
    },
    async summaries(releaseIds: string[]): Promise<Map<string, DeliveryJson>> {
      if (releaseIds.length === 0) return new Map();
      try {
        const res = await client.summarizeReleases({ releaseIds });
        return new Map(res.summaries.map((s) => [s.releaseId, deliveryJson(s)]));
      } catch (err) {
        logger.warn({ err }, 'delivery did not answer; releases listed without their jobs');
        return new Map();
      }
    },
  };
}

export function releaseRoutes(
  catalogClient: CatalogClient,
  deliveryClient: DeliveryClient,
  guards: Guards,
  logger: Logger,
): Router {
  const router = createRouter();
  const deliveries = deliveryLookup(deliveryClient, logger);
  router.use(guards.requireUser);

  router.post('/', async (req, res) => {
    const body = parseReleaseBody(req.body);
    const { release } = await catalogClient.createRelease(
      {
        ownerId: req.principal!.userId,
        artistName: body.artistName,
        releaseTitle: body.releaseTitle,
        trackTitle: body.trackTitle,
        releaseType: body.releaseType,
        genre: body.genre,
        label: body.label,
        releaseDate: body.releaseDate,
        explicit: body.explicit,
        audio: body.audio,
        artwork: body.artwork,
        metadata: {
          credits: body.credits,
          technical: body.technical,
          legal: body.legal,
          content: body.content,
        },
        stores: body.stores,
      },
      // Two storage inspections and a durable commit: more than the default deadline on a busy disk.
      { deadlineMs: 15_000 },
    );
    // Delivery queues the jobs from catalog's event, after this answer: there are none to ask for yet. The
    // release page reads them with the release (GET /:id) and polls until they appear.
    res.status(201).json({ release: releaseJson(release!, NO_JOBS_YET) });
  });

  router.get('/', async (req, res) => {
    const { limit = 50 } = parseQuery(listQuery, req);
    const { releases } = await catalogClient.listReleases({ ownerId: req.principal!.userId, limit });
    const summaries = await deliveries.summaries(releases.map((r) => r.id));
    res.set('Cache-Control', 'no-store').json({
      releases: releases.map((r) => releaseJson(r, summaries.get(r.id) ?? DELIVERY_UNKNOWN)),
    });
  });

  router.get('/:id', async (req, res) => {
    const { id } = parseParams(idParams, req);
    // Catalog names releases with random UUIDs: any other id gets catalog's answer for a release that does
    // not exist (or is someone else's), without asking it.
    if (!isReleaseId(id)) throw notFound('No such release.');
    const principal = req.principal!;
    const { release } = await catalogClient.getRelease({
      releaseId: id,
      callerId: principal.userId,
      callerIsAdmin: principal.roles.includes('admin'),
    });
    res
      .set('Cache-Control', 'no-store')
      .json({ release: releaseJson(release!, await deliveries.forRelease(id)) });
  });

  return router;
}

/** POST /api/songs: the /uploader's Song Submission panel. */
export function songRoutes(catalogClient: CatalogClient, guards: Guards): Router {
  const router = createRouter();
  router.use(guards.requireUser);
  router.post('/', async (req, res) => {
    const body = parseSongBody(req.body);
    const { release, isrc } = await catalogClient.submitSong(
      { ownerId: req.principal!.userId, ...body },
      { deadlineMs: 15_000 },
    );
    res.status(201).json({ release: releaseJson(release!, NO_JOBS_YET), isrc });
  });
  return router;
}
