// /api/releases and /api/songs: an artist's releases. Catalog owns releases and who may see them;
// delivery reports each release's per-store jobs. Every route needs a signed-in user; someone else's
// release answers 404 (catalog decides), so its existence is not revealed.
import {
  type Guards,
  type Logger,
  notFound,
  type PromiseClient,
  parseBody,
  parseParams,
  parseQuery,
} from '@omni/platform';
import type { delivery } from '@omni/proto';
import { DELIVERY_MESSAGES, isReleaseId, RELEASE_MESSAGES, storesBody } from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';
import { jobJson } from './delivery-json';
import { type CatalogClient, visibleRelease } from './release-access';
import {
  parseEditBody,
  parseReleaseBody,
  parseResubmitBody,
  parseSongBody,
  type ReleaseBody,
  type ResubmitBody,
} from './release-body';
import { DELIVERY_UNKNOWN, type DeliveryJson, deliveryJson, NO_JOBS_YET, releaseJson } from './release-json';

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
        ...formFields(body),
        audio: body.audio,
        artwork: body.artwork,
        excludedTerritories: body.excludedTerritories,
        featuredArtists: body.featuredArtists,
        language: body.language,
      },
      // A storage inspection per file and a durable commit: more than the default deadline on a busy disk.
      { deadlineMs: 15_000 + 500 * body.tracks.length },
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
    const release = await visibleRelease(catalogClient, req);
    res
      .set('Cache-Control', 'no-store')
      .json({ release: releaseJson(release, await deliveries.forRelease(release.id)) });
  });

  // Fix and resubmit a rejected release: the artist form again, files optional. Catalog checks that the
  // caller owns it and that it was rejected, and sends it back to review.
  router.post('/:id/resubmit', async (req, res) => {
    const { id } = parseParams(idParams, req);
    if (!isReleaseId(id)) throw notFound('No such release.');
    const body = parseResubmitBody(req.body);
    const { release } = await catalogClient.resubmitRelease(
      {
        releaseId: id,
        ownerId: req.principal!.userId,
        ...formFields(body),
        audio: body.audio,
        artwork: body.artwork,
      },
      { deadlineMs: 15_000 },
    );
    res.json({ release: releaseJson(release!, await deliveries.forRelease(id)) });
  });

  // Edit a release: the fields given change. Catalog checks ownership and what may change (identifiers
  // the stores hold stay once it reached them); a change makes a version that goes back to review.
  router.patch('/:id', async (req, res) => {
    const { id } = parseParams(idParams, req);
    if (!isReleaseId(id)) throw notFound('No such release.');
    const body = parseEditBody(req.body);
    const { release, version, changed } = await catalogClient.editRelease(
      {
        releaseId: id,
        ownerId: req.principal!.userId,
        artistName: body.artistName,
        releaseTitle: body.releaseTitle,
        releaseType: body.releaseType,
        genre: body.genre,
        label: body.label,
        releaseDate: body.releaseDate,
        preOrderDate: body.preOrderDate,
        releaseTimeZone: body.releaseTimeZone,
        featuredArtists: body.featuredArtists ?? [],
        featuredArtistsGiven: body.featuredArtists !== undefined,
        language: body.language,
        credits: body.credits,
        technical: body.technical,
        legal: body.legal,
        content: body.content,
        excludedTerritories: body.excludedTerritories ?? [],
        excludedTerritoriesGiven: body.excludedTerritories !== undefined,
        tracks: (body.tracks ?? []).map((t) => ({
          ...t,
          featuredArtists: t.featuredArtists ?? [],
          featuredArtistsGiven: t.featuredArtists !== undefined,
        })),
      },
      { deadlineMs: 15_000 },
    );
    res.json({
      release: releaseJson(release!, await deliveries.forRelease(id)),
      version: version ?? null,
      changed,
    });
  });

  // Delete a release no store was ever sent, with its files. Delivery withdraws it first (it alone knows
  // whether a message was made, and from then on ignores a late submission), then catalog deletes it.
  router.delete('/:id', async (req, res) => {
    const release = await visibleRelease(catalogClient, req);
    await deliveryClient.withdrawRelease({ releaseId: release.id, callerId: req.principal!.userId });
    const { filesRemoved } = await catalogClient.deleteRelease(
      { releaseId: release.id, ownerId: req.principal!.userId },
      { deadlineMs: 15_000 },
    );
    res.json({ deleted: true, filesRemoved, message: RELEASE_MESSAGES.deleted });
  });

  // The release's versions, newest first, each with what changed from the one before.
  router.get('/:id/versions', async (req, res) => {
    const { id } = parseParams(idParams, req);
    if (!isReleaseId(id)) throw notFound('No such release.');
    const { versions } = await catalogClient.listReleaseVersions({
      releaseId: id,
      callerId: req.principal!.userId,
      callerIsAdmin: false,
    });
    res.set('Cache-Control', 'no-store').json({ versions });
  });

  // Take the release down from all its stores or the chosen ones: a deal-less message to each, queued.
  router.post('/:id/takedown', async (req, res) => {
    const release = await visibleRelease(catalogClient, req);
    const { stores } = parseBody(storesBody, req, { first: true });
    const { jobs } = await deliveryClient.takeDown({
      releaseId: release.id,
      stores,
      callerId: req.principal!.userId,
    });
    res.status(202).json({ jobs: jobs.map(jobJson), message: DELIVERY_MESSAGES.takedownQueued(jobs.length) });
  });

  // Release again to stores it was taken down from (all of them, or the chosen ones): a new
  // NewReleaseMessage to each, queued after the takedown. Who may take down may release again.
  router.post('/:id/rerelease', async (req, res) => {
    const release = await visibleRelease(catalogClient, req);
    const { stores } = parseBody(storesBody, req, { first: true });
    const { jobs } = await deliveryClient.reRelease({
      releaseId: release.id,
      stores,
      callerId: req.principal!.userId,
    });
    res
      .status(202)
      .json({ jobs: jobs.map(jobJson), message: DELIVERY_MESSAGES.reReleaseQueued(jobs.length) });
  });

  return router;
}

/** The artist form's fields as catalog's create and resubmit requests both take them. */
function formFields(body: ReleaseBody | ResubmitBody) {
  return {
    artistName: body.artistName,
    releaseTitle: body.releaseTitle,
    trackTitle: body.trackTitle,
    releaseType: body.releaseType,
    genre: body.genre,
    label: body.label,
    releaseDate: body.releaseDate,
    // Kept by a resubmission as they are (catalog); an edit changes them.
    preOrderDate: body.preOrderDate,
    releaseTimeZone: body.releaseTimeZone,
    explicit: body.explicit,
    metadata: { credits: body.credits, technical: body.technical, legal: body.legal, content: body.content },
    stores: body.stores,
    tracks: body.tracks.map((t) => ({ ...t, discNumber: t.discNumber })),
  };
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
