// Reads that the embedded document store (SQLite) answers by reading a whole collection: their cost grows
// with every document ever written, which the old in-memory store hid. The platform is started in this
// process and driven as an artist, an admin and the delivery pipeline use it (a release created, reviewed,
// approved, delivered to two stores and acknowledged; the dashboard, the release list, a release page, its
// deliveries, the admin's review queue). Every query no index narrowed is reported by the adapter
// (watchScans) and must be one of the accepted ones below, each with why. A new one fails here: give its
// collection an index that leads with a field the query pins, or accept it here with the reason.
import { randomUUID } from 'node:crypto';
import { type ScanReport, watchScans } from '@omni/platform/src/adapters/documents-sqlite';
import {
  approve,
  createRealRelease,
  deliveryClient,
  startDeliveryPlatform,
} from '../integration/delivery.fixtures';
import { type ReleasePlatform, waitUntil } from '../integration/releases.fixtures';

/** `collection: filter shape [sort]` → why reading the whole collection is acceptable there. */
const ACCEPTED: Record<string, string> = {
  'signing_keys: {}':
    "the JWKS publishes every key of the embedded issuer, and there is one (keys are not rotated); Keycloak's in production",
};

const key = (scan: ScanReport) => `${scan.collection}: {${scan.filter}}${scan.sort ? ` [${scan.sort}]` : ''}`;

let omni: ReleasePlatform | undefined;
let rpc: ReturnType<typeof deliveryClient> | undefined;
const seen = new Map<string, number>();
const stop = watchScans((scan) => seen.set(key(scan), (seen.get(key(scan)) ?? 0) + 1));

afterAll(async () => {
  stop();
  rpc?.close();
  await omni?.close();
});

it('answers what the product asks of its stores through indexes', async () => {
  omni = await startDeliveryPlatform();
  rpc = deliveryClient(omni);
  const artist = randomUUID();
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['spotify', 'deezer']);
  await approve(rpc, release.id);
  await waitUntil(
    async () => {
      const { jobs } = await rpc!.listJobs({ releaseId: release.id });
      return jobs.length === 2 && jobs.every((j) => j.status === 'live') ? jobs : undefined;
    },
    60_000,
    'both stores live',
  );
  for (const path of [
    '/api/dashboard',
    '/api/releases',
    `/api/releases/${release.id}`,
    `/api/releases/${release.id}/deliveries`,
  ]) {
    const res = await omni.api(path, { token });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
  }
  const admin = await omni.token(randomUUID(), ['admin']);
  for (const path of ['/api/admin/releases', '/api/admin/releases?status=approved']) {
    const res = await omni.api(path, { token: admin });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
  }

  const unexpected = [...seen.keys()].filter((scan) => !(scan in ACCEPTED)).sort();
  if (unexpected.length > 0) {
    console.warn(
      `whole-collection reads (count):\n${unexpected.map((s) => `  ${s} ×${seen.get(s)}`).join('\n')}`,
    );
  }
  expect(unexpected).toEqual([]);
}, 120_000);
