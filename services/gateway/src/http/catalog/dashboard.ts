// GET /api/dashboard: the /app stat cards and the caller's releases.
// - totalReleases: catalog's count of the caller's releases.
// - monthlyStreams, totalEarnings: read by royalties from the earnings ledger (statements imported from the
//   stores): streams of the latest sale month reported and everything earned, each with its sale and
//   reporting month. `totalEarnings` stays the spec's dollars with two decimals; `totalEarningsUsd` is
//   the exact decimal string.
// - collaborators: royalties' count of the distinct addresses the caller invited to a share of a release.
import type { Guards, PromiseClient } from '@omni/platform';
import type { catalog, royalties } from '@omni/proto';
import { dashboardEarnings } from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';
import * as z from 'zod/mini';

const RECENT_RELEASES = 20;

/** A USD decimal string to the spec's dollars with two decimals (rounded half up on the cent digit). */
export function dollarsFromDecimal(amount: string): number {
  const negative = amount.startsWith('-');
  const [whole, frac = ''] = amount.replace('-', '').split('.');
  const nano = BigInt(whole ?? '0') * 1_000_000_000n + BigInt(frac.padEnd(9, '0').slice(0, 9));
  const cents = (nano + 5_000_000n) / 10_000_000n;
  return ((negative ? -1 : 1) * Number(cents)) / 100;
}

export function dashboardRoutes(
  catalogClient: PromiseClient<typeof catalog.CatalogServiceService>,
  royaltiesClient: PromiseClient<typeof royalties.RoyaltiesServiceService>,
  guards: Guards,
): Router {
  const router = createRouter();
  router.use(guards.requireUser);
  router.get('/', async (req, res) => {
    const ownerId = req.principal!.userId;
    const [{ releases, total }, { summaryJson }, { collaborators }] = await Promise.all([
      catalogClient.listReleases({ ownerId, limit: RECENT_RELEASES }),
      royaltiesClient.getEarningsSummary({ ownerId }),
      royaltiesClient.countCollaborators({ ownerId }),
    ]);
    const earnings = z.parse(dashboardEarnings, JSON.parse(summaryJson));
    res.set('Cache-Control', 'no-store').json({
      totalReleases: total,
      ...earnings,
      totalEarnings: dollarsFromDecimal(earnings.totalEarningsUsd),
      collaborators,
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
