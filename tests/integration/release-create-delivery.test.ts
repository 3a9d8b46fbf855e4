// Creating a release answers without asking delivery: delivery queues the release's jobs from catalog's
// event, after the answer, so there are none to ask for yet (the release page reads them with GET). Shown
// with delivery unreachable: the create still answers 201 with no jobs and no "delivery unavailable" mark,
// while reading the release reports the outage as it should.
import { randomUUID } from 'node:crypto';
import { freePort } from '../support/process';
import { type ReleasePlatform, releaseBody, startReleasePlatform } from './releases.fixtures';

interface DeliveryJson {
  total: number;
  jobs: unknown[];
  unavailable?: boolean;
}

let omni: ReleasePlatform;
const alice = randomUUID();
let token: string;

beforeAll(async () => {
  // A port nobody listens on: every call to delivery is refused.
  omni = await startReleasePlatform(undefined, { DELIVERY_GRPC_ADDR: `127.0.0.1:${await freePort()}` });
  token = await omni.token(alice);
});
afterAll(() => omni?.close());

it('answers a new release with no jobs yet, without asking delivery', async () => {
  const res = await omni.api('/api/releases', { method: 'POST', token, json: releaseBody(alice) });
  expect(res.status).toBe(201);
  const { release } = (await res.json()) as { release: { id: string; delivery: DeliveryJson } };
  expect(release.delivery).toEqual({ total: 0, byStatus: {}, jobs: [] });

  // Reading the release does ask delivery, and says it did not answer.
  const read = await omni.api(`/api/releases/${release.id}`, { token });
  expect(read.status).toBe(200);
  const body = (await read.json()) as { release: { delivery: DeliveryJson } };
  expect(body.release.delivery.unavailable).toBe(true);
});
