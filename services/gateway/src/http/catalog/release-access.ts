// Catalog decides who may see a release (its owner or an admin); every route about one release asks it
// first, so someone else's release is "not found" everywhere, before delivery is asked anything.
import { notFound, type PromiseClient, parseParams } from '@omni/platform';
import type { catalog } from '@omni/proto';
import { isReleaseId } from '@omni/proto/api';
import type { Request } from 'express';
import { z } from 'zod';

export type CatalogClient = PromiseClient<typeof catalog.CatalogServiceService>;

const idParams = z.object({ id: z.string().min(1).max(100) }).passthrough();

/** The release named by `:id`, if the signed-in caller may see it; 404 otherwise. */
export async function visibleRelease(client: CatalogClient, req: Request): Promise<catalog.Release> {
  const { id } = parseParams(idParams, req);
  // Catalog names releases with random UUIDs: any other id is not found, without asking it.
  if (!isReleaseId(id)) throw notFound('No such release.');
  const principal = req.principal!;
  const { release } = await client.getRelease({
    releaseId: id,
    callerId: principal.userId,
    callerIsAdmin: principal.roles.includes('admin'),
  });
  if (!release) throw notFound('No such release.');
  return release;
}
