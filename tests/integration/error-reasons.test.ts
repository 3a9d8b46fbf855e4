// A refusal's reason crosses gRPC in the status metadata (`omni-reason`), and the gateway answers with the
// code that reason maps to: the same call read at both ends, identity's gRPC port and the public HTTP API.
import { randomUUID } from 'node:crypto';
import { createGrpcClient, GrpcStatus, REASON_KEY, reasonOf } from '@omni/platform';
import { catalog, identity } from '@omni/proto';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let identityClient: ReturnType<typeof createGrpcClient<typeof identity.IdentityServiceService>>;
let ip = 0;

const post = (path: string, json: unknown) =>
  fetch(`${platform.url}${path}`, {
    method: 'POST',
    body: JSON.stringify(json),
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.0.${++ip}` },
  });
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string; code: string } }).error;

/** What the gRPC call was refused with: status, message and the reason in its metadata. */
async function refusal(call: Promise<unknown>) {
  const err = await call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (e: unknown) => e as { code: number; details: string; metadata: { get(k: string): unknown[] } },
  );
  return {
    code: err.code,
    details: err.details,
    reason: err.metadata.get(REASON_KEY)[0],
    read: reasonOf(err),
  };
}

beforeAll(async () => {
  platform = await startTestPlatform();
  identityClient = createGrpcClient(identity.IdentityServiceService, platform.config.grpcAddress('identity'));
});
afterAll(async () => {
  identityClient?.close();
  await platform?.close();
});

describe('a reason crosses gRPC and becomes the HTTP code', () => {
  const email = `unconfirmed-${Date.now()}@example.com`;
  const password = 'secret-pass';

  beforeAll(async () => {
    expect((await post('/api/auth/signup', { email, password })).status).toBe(201);
  });

  it('an unconfirmed sign-in: PERMISSION_DENIED with reason email_not_confirmed; 403 email_not_confirmed', async () => {
    expect(await refusal(identityClient.signIn({ email, password }))).toEqual({
      code: GrpcStatus.PERMISSION_DENIED,
      details: 'Email not confirmed',
      reason: 'email_not_confirmed',
      read: 'email_not_confirmed',
    });
    const res = await post('/api/auth/login', { email, password });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toEqual({ message: 'Email not confirmed', code: 'email_not_confirmed' });
  });

  it.each([
    [
      'a wrong password',
      () => identityClient.signIn({ email, password: 'wrong-pass' }),
      'invalid_credentials',
    ],
    ['a taken email', () => identityClient.signUp({ email, password }), 'email_taken'],
    ['a spent link', () => identityClient.verifyEmail({ token: 'no-such-token' }), 'invalid_link'],
    ['a stale handoff', () => identityClient.redeemHandoff({ code: 'no-such-code' }), 'invalid_handoff'],
    ['a stale refresh token', () => identityClient.refresh({ refreshToken: 'stale' }), 'session_expired'],
    // identity's own check of its input, with the shared zod helper
    ['a malformed email', () => identityClient.signUp({ email: 'nope', password }), 'invalid_request'],
    ['no caller', () => identityClient.getMe({}), 'sign_in_required'],
  ])('%s carries its reason', async (_what, call, reason) => {
    expect((await refusal(call())).reason).toBe(reason);
  });

  it('the gateway answers each with the code of its reason', async () => {
    const cases: [string, unknown, number, string][] = [
      ['/api/auth/login', { email, password: 'wrong-pass' }, 401, 'invalid_credentials'],
      ['/api/auth/signup', { email, password }, 409, 'email_taken'],
      ['/api/auth/verify', { token: 'no-such-token' }, 400, 'invalid_link'],
      ['/api/auth/handoff', { code: 'no-such-code' }, 400, 'invalid_handoff'],
      ['/api/auth/refresh', { refreshToken: 'stale' }, 401, 'session_expired'],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await post(path, body);
      expect([path, res.status, (await errorOf(res)).code]).toEqual([path, status, code]);
    }
  });

  it("a missing release: NOT_FOUND with reason release_not_found; the API's 404 keeps the code not_found", async () => {
    const client = createGrpcClient(catalog.CatalogServiceService, platform.config.grpcAddress('catalog'));
    try {
      const releaseId = randomUUID();
      expect(
        await refusal(client.getRelease({ releaseId, callerId: 'someone', callerIsAdmin: false })),
      ).toEqual({
        code: GrpcStatus.NOT_FOUND,
        details: 'No such release.',
        reason: 'release_not_found',
        read: 'release_not_found',
      });
      const token = await signTestToken(await platform.ports.documents('identity'), { userId: 'someone' });
      const res = await fetch(`${platform.url}/api/releases/${releaseId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toEqual({ message: 'No such release.', code: 'not_found' });
    } finally {
      client.close();
    }
  });
});
