// The admin review queue (OMNI CMS, Release Review): releases waiting for a person's check after the
// automatic store checks, approve (delivery starts) or reject with a reason the artist sees; and purge,
// which removes a release from stores completely. Admins only: anonymous 401, anyone else 403.
import { type Guards, notFound, parseBody, parseParams, parseQuery } from '@omni/platform';
import {
  DELIVERY_MESSAGES,
  isReleaseId,
  REVIEW_STATUSES,
  type ReviewJson,
  rejectReleaseBody,
  storesBody,
} from '@omni/proto/api';
import { Router as createRouter, type Request, type Router } from 'express';
import { z } from 'zod';
import type { DeliveryClient } from '../catalog/deliveries';
import { jobJson, reviewJson, reviewQueueItemJson } from '../catalog/delivery-json';
import { type CatalogClient, visibleRelease } from '../catalog/release-access';

const QUEUE_PAGE = 50;

/** The admin downloads a proof of rights through the admin route (http/delivery/rights-proofs.ts). */
const adminProofLinks = (releaseId: string, review: ReviewJson): ReviewJson => ({
  ...review,
  proofs: review.proofs.map((p) => ({
    ...p,
    downloadUrl: `/api/admin/releases/${releaseId}/rights-proofs/${p.id}/file`,
  })),
});

const queueQuery = z
  .object({
    status: z
      .enum(REVIEW_STATUSES, { message: `status must be one of ${REVIEW_STATUSES.join(', ')}.` })
      .default('in_review'),
    cursor: z.string().max(500).default(''),
  })
  .strict();

const idParams = z.object({ id: z.string().min(1).max(100) });

function releaseIdOf(req: Request): string {
  const { id } = parseParams(idParams, req);
  if (!isReleaseId(id)) throw notFound('No such release.');
  return id;
}

export function adminReleaseRoutes(
  catalogClient: CatalogClient,
  deliveryClient: DeliveryClient,
  guards: Guards,
): Router {
  const router = createRouter();
  router.use('/releases', guards.requireAdmin, (_req, res, next) => {
    // One admin's view: never for a shared cache.
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/releases', async (req, res) => {
    const { status, cursor } = parseQuery(queueQuery, req);
    const answer = await deliveryClient.listReviewQueue({ status, cursor, limit: QUEUE_PAGE });
    // What changed in each release since the version before: the admin judges the edit, not only the whole.
    const { versions } = await catalogClient.listLatestVersions({
      releaseIds: answer.reviews.map((r) => r.releaseId),
    });
    const latest = new Map(versions.map((v) => [v.releaseId, v.version]));
    res.json({
      items: answer.reviews.map((r) => {
        const version = latest.get(r.releaseId);
        const item = reviewQueueItemJson(r);
        return {
          ...item,
          review: adminProofLinks(r.releaseId, item.review),
          version: version?.version ?? null,
          changes: version?.changes ?? [],
        };
      }),
      nextCursor: answer.nextCursor || null,
    });
  });

  // One release's review for the admin: its findings (with the rights check's evidence) and its jobs. A
  // release delivery has no review of yet (or no release at all) is 404.
  router.get('/releases/:id', async (req, res) => {
    const releaseId = releaseIdOf(req);
    const answer = await deliveryClient.listJobs({ releaseId });
    if (!answer.review) throw notFound('No such release in review.');
    res.json({
      releaseId,
      releaseStatus: answer.summary?.releaseStatus ?? null,
      review: adminProofLinks(releaseId, reviewJson(answer.review)),
      jobs: answer.jobs.map(jobJson),
    });
  });

  router.post('/releases/:id/approve', async (req, res) => {
    const releaseId = releaseIdOf(req);
    const { review } = await deliveryClient.approveRelease({ releaseId, adminId: req.principal!.userId });
    res.json({ review: review ? reviewJson(review) : null, message: DELIVERY_MESSAGES.approved });
  });

  router.post('/releases/:id/reject', async (req, res) => {
    const releaseId = releaseIdOf(req);
    const { reason } = parseBody(rejectReleaseBody, req, { first: true });
    const { review } = await deliveryClient.rejectRelease({
      releaseId,
      adminId: req.principal!.userId,
      reason,
    });
    res.json({ review: review ? reviewJson(review) : null, message: DELIVERY_MESSAGES.rejected });
  });

  router.post('/releases/:id/purge', async (req, res) => {
    const release = await visibleRelease(catalogClient, req);
    const { stores } = parseBody(storesBody, req, { first: true });
    const { jobs } = await deliveryClient.purgeRelease({
      releaseId: release.id,
      stores,
      adminId: req.principal!.userId,
    });
    res.status(202).json({ jobs: jobs.map(jobJson), message: DELIVERY_MESSAGES.purgeQueued(jobs.length) });
  });

  return router;
}
