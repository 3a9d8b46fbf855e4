// Deleting an account that has releases (issue 21 §3.5): what the account page says before the person
// confirms is what happens. A release still in review stops the deletion (it would be approved for
// nobody); a delivered release is taken down from every store before the account goes. On the way, the
// approval reaches the artist's mailbox through the real delivery → bus → identity path (§3.4).
import { createGrpcClient, type PromiseClient } from '@omni/platform';
import { delivery } from '@omni/proto';
import { type ReleasePlatform, releaseBody, startReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform;
let deliveryRpc: PromiseClient<typeof delivery.DeliveryServiceService>;

beforeAll(async () => {
  omni = await startReleasePlatform();
  deliveryRpc = createGrpcClient(delivery.DeliveryServiceService, omni.config.grpcAddress('delivery'));
});
afterAll(async () => {
  deliveryRpc?.close();
  await omni?.close();
});

interface Mail {
  subject: string;
  links: string[];
}
const mailsTo = async (email: string) =>
  (
    (await (await omni.api(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as {
      messages: Mail[];
    }
  ).messages;

async function artist() {
  const email = `deleting-${Date.now()}@example.com`;
  const password = 'secret-pass';
  expect((await omni.api('/api/auth/signup', { method: 'POST', json: { email, password } })).status).toBe(
    201,
  );
  const link = (await mailsTo(email))[0]!.links[0]!;
  const verified = await omni.api('/api/auth/verify', {
    method: 'POST',
    json: { token: new URL(link).searchParams.get('verify') },
  });
  const session = (await verified.json()) as { accessToken: string; user: { id: string } };
  return { email, password, token: session.accessToken, userId: session.user.id };
}

const statusBecomes = (releaseId: string, token: string, status: string) =>
  waitUntil(
    async () => {
      const res = await omni.api(`/api/releases/${releaseId}`, { token });
      const body = (await res.json()) as { release: { status: string } };
      return body.release.status === status ? true : undefined;
    },
    15_000,
    `release ${releaseId} to be ${status}`,
  );

it('refuses while a release is in review, then takes delivered releases down from every store', async () => {
  const me = await artist();
  const created = await omni.api('/api/releases', {
    method: 'POST',
    token: me.token,
    json: releaseBody(me.userId),
  });
  expect(created.status).toBe(201);
  const releaseId = ((await created.json()) as { release: { id: string } }).release.id;
  await statusBecomes(releaseId, me.token, 'in_review');

  const waiting = await omni.api('/api/me/deletion', { token: me.token });
  expect(await waiting.json()).toEqual({
    releases: 1,
    inStores: 0,
    blockers: ['"Night Drive" is still in review. Wait for the review to finish, then delete the account.'],
  });
  const refused = await omni.api('/api/me', {
    method: 'DELETE',
    token: me.token,
    json: { password: me.password, confirmation: 'DELETE' },
  });
  expect(refused.status).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
    '"Night Drive" is still in review. Wait for the review to finish, then delete the account.',
  );

  await deliveryRpc.approveRelease({ releaseId, adminId: 'admin-1' });
  await statusBecomes(releaseId, me.token, 'delivering');
  // The approval mail, from delivery's own event.
  const approved = await waitUntil(
    async () => (await mailsTo(me.email)).find((m) => m.subject === 'Your release was approved'),
    10_000,
    'the approval mail',
  );
  expect(approved.links[0]).toBe(`http://localhost:8080/release/${releaseId}`);

  const preview = await omni.api('/api/me/deletion', { token: me.token });
  expect(await preview.json()).toEqual({ releases: 1, inStores: 1, blockers: [] });
  const res = await omni.api('/api/me', {
    method: 'DELETE',
    token: me.token,
    json: { password: me.password, confirmation: 'DELETE' },
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    message: 'Your account is deleted. 1 release is being taken down from every store.',
    takenDown: 1,
  });
  // Every store's job now carries the takedown (in flight ones after the batch they are sending).
  const jobs = await (await omni.ports.documents('delivery'))
    .collection<{ _id: string; target: string; jobKind: string; pendingKind?: string }>('delivery_jobs')
    .find({ releaseId });
  expect(
    jobs.map((j) => [j.target, j.jobKind === 'takedown' || j.pendingKind === 'takedown']).sort(),
  ).toEqual([
    ['apple_music', true],
    ['spotify', true],
    ['tidal', true],
  ]);
  expect(
    (await omni.api('/api/auth/login', { method: 'POST', json: { email: me.email, password: me.password } }))
      .status,
  ).toBe(401);
});
