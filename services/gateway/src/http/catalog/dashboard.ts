// GET /api/dashboard: the /app stat cards and the caller's releases.
// - totalReleases: catalog's count of the caller's releases (real).
// - monthlyStreams, totalEarnings, collaborators: the spec reads them from streaming_analytics, earnings
//   and collaborators, which no service records yet (analytics, billing payouts and splits are later
//   issues). With no rows the spec's own sums are 0, so 0 is the true answer until those services exist;
//   wire them here when they do.
import type { Guards, PromiseClient } from '@omni/platform';
import type { catalog } from '@omni/proto';
import { Router as createRouter, type Router } from 'express';

const RECENT_RELEASES = 20;

/** Sum of revenue cents → dollars with two decimals, as the spec's dashboard shows it. */
export const dollarsFromCents = (cents: number) => Math.round(cents) / 100;

export function dashboardRoutes(
  catalogClient: PromiseClient<typeof catalog.CatalogServiceService>,
  guards: Guards,
): Router {
  const router = createRouter();
  router.use(guards.requireUser);
  router.get('/', async (req, res) => {
    const { releases, total } = await catalogClient.listReleases({
      ownerId: req.principal!.userId,
      limit: RECENT_RELEASES,
    });
    const revenueCents = 0; // no earnings recorded yet (see above)
    res.set('Cache-Control', 'no-store').json({
      totalReleases: total,
      monthlyStreams: 0,
      totalEarnings: dollarsFromCents(revenueCents),
      collaborators: 0,
      releases: releases.map((r) => ({
        id: r.id,
        title: r.title,
        status: r.status,
        createdAt: r.createdAt,
        artworkUrl: r.artworkUrl || null,
      })),
    });
  });
  return router;
}
