// A status message is a trailer: one too long for HTTP/2's header limits never reaches the caller, whose
// call then hangs until its deadline with every other call on that connection. The kit caps every status
// message it sends (server.ts), so a refusal that quotes a 100 KB input still arrives, short, at once.
import { status } from '@grpc/grpc-js';
import { health, identity } from '@omni/proto';
import { createGrpcClient } from '../src/grpc/client';
import { capStatusMessage, invalidArgument, MAX_STATUS_MESSAGE_WIRE_CHARS } from '../src/grpc/errors';
import { createGrpcServer } from '../src/grpc/server';
import { createLogger } from '../src/logging/logger';

const HUGE = `Line 2: "${'Q'.repeat(100_000)}" is not an ISRC.`;
const HUGE_ACCENTED = `Zeile 2: ${'é ü '.repeat(30_000)}`;

describe('capStatusMessage', () => {
  it('leaves a message that fits untouched', () => {
    expect(capStatusMessage('Line 2: plays must be a whole number.')).toBe(
      'Line 2: plays must be a whole number.',
    );
  });

  it('cuts a long one, on a character boundary and with "…", to fit the wire once percent-encoded', () => {
    for (const long of [HUGE, HUGE_ACCENTED, '🎵'.repeat(50_000)]) {
      const capped = capStatusMessage(long);
      expect(capped.endsWith('…')).toBe(true);
      expect(encodeURI(capped).length).toBeLessThanOrEqual(MAX_STATUS_MESSAGE_WIRE_CHARS);
      // Most of the room is used: the cut is not needlessly short.
      expect(encodeURI(capped).length).toBeGreaterThan(MAX_STATUS_MESSAGE_WIRE_CHARS - 20);
      expect(long.startsWith(capped.slice(0, -1))).toBe(true);
    }
  });

  it('turns a lone surrogate half (which encodeURI refuses) into a replacement character', () => {
    expect(capStatusMessage('bad \uD800 value')).toBe('bad \uFFFD value');
  });
});

describe('over a real gRPC call', () => {
  const logger = createLogger('test');
  const server = createGrpcServer('test', logger);
  let client: ReturnType<typeof createGrpcClient<typeof identity.IdentityServiceService>>;
  let checks: ReturnType<typeof createGrpcClient<typeof health.HealthService>>;

  beforeAll(async () => {
    server.add(identity.IdentityServiceService, {
      signIn: async () => {
        throw invalidArgument(HUGE);
      },
      signUp: async () => {
        throw invalidArgument(HUGE_ACCENTED);
      },
    } as never);
    const port = await server.listen('127.0.0.1', 0);
    server.setServing(true);
    client = createGrpcClient(identity.IdentityServiceService, `127.0.0.1:${port}`);
    checks = createGrpcClient(health.HealthService, `127.0.0.1:${port}`);
  });
  afterAll(async () => {
    client?.close();
    checks?.close();
    await server.stop(1000);
  });

  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => {
        throw new Error('the call succeeded');
      },
      (e: unknown) => e as { code: number; details: string },
    );

  it('a refusal quoting 100 KB arrives as itself, capped, well before its deadline, and the connection keeps serving', async () => {
    // A deadline far beyond the test's own timeout: only a delivered status can settle these calls in time.
    const long = { deadlineMs: 60_000 };
    const [ascii, accented, healthy] = await Promise.all([
      refusal(client.signIn({ email: 'a@b.co', password: 'secret-pass' }, long)),
      refusal(client.signUp({ email: 'a@b.co', password: 'secret-pass' }, long)),
      checks.check({ service: '' }, long),
    ]);
    for (const err of [ascii, accented]) {
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(encodeURI(err.details).length).toBeLessThanOrEqual(MAX_STATUS_MESSAGE_WIRE_CHARS);
      expect(err.details.endsWith('…')).toBe(true);
    }
    expect(ascii.details.startsWith('Line 2: "QQQ')).toBe(true);
    expect(healthy.status).toBe(health.HealthCheckResponse_ServingStatus.SERVING);
    // And the same connection answers the next call.
    expect((await checks.check({ service: '' })).status).toBe(
      health.HealthCheckResponse_ServingStatus.SERVING,
    );
  }, 15_000);
});
