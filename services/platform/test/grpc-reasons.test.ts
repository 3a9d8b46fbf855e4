// The one mapping from a failed call to the HTTP error, and the reason's trip through a real gRPC server
// and client on loopback.
import { Metadata, status } from '@grpc/grpc-js';
import { identity } from '@omni/proto';
import { z } from 'zod';
import { createGrpcClient } from '../src/grpc/client';
import { fail, GrpcError, httpErrorFromGrpc, reasonOf } from '../src/grpc/errors';
import { REASON_KEY, REASONS } from '../src/grpc/reasons';
import { createGrpcServer } from '../src/grpc/server';
import { HttpError } from '../src/http/errors';
import { InvalidInput, parseWith } from '../src/http/validate';
import { createLogger } from '../src/logging/logger';

const serviceError = (code: status, details: string, reason?: string) => {
  const metadata = new Metadata();
  if (reason) metadata.set(REASON_KEY, reason);
  return Object.assign(new Error(details), { code, details, metadata });
};

describe('(status, reason) → HTTP error', () => {
  it('answers with the code of the reason and the service message, whatever its words', () => {
    const http = httpErrorFromGrpc(
      serviceError(status.PERMISSION_DENIED, 'Any sentence at all', 'email_not_confirmed'),
    );
    expect(http).toBeInstanceOf(HttpError);
    expect([http?.status, http?.code, http?.message]).toEqual([
      403,
      'email_not_confirmed',
      'Any sentence at all',
    ]);
  });

  it('gives several reasons one public code where the contract has one', () => {
    expect(
      httpErrorFromGrpc(serviceError(status.NOT_FOUND, 'No such release.', 'release_not_found'))?.code,
    ).toBe('not_found');
    expect(httpErrorFromGrpc(serviceError(status.UNAUTHENTICATED, 'x', 'sign_in_required'))?.code).toBe(
      'unauthenticated',
    );
  });

  it("falls back to the status's name without a reason, or with one it does not know", () => {
    expect(httpErrorFromGrpc(serviceError(status.FAILED_PRECONDITION, 'x'))?.code).toBe(
      'failed_precondition',
    );
    expect(httpErrorFromGrpc(serviceError(status.NOT_FOUND, 'x', 'made_up'))?.code).toBe('not_found');
    expect(httpErrorFromGrpc(serviceError(status.NOT_FOUND, 'x', 'toString'))?.code).toBe('not_found');
  });

  it('never lets a reason open a 5xx: internals stay hidden, outages say to try again', () => {
    expect(
      httpErrorFromGrpc(serviceError(status.INTERNAL, 'stack at db.ts:4', 'invalid_request')),
    ).toBeUndefined();
    const unavailable = httpErrorFromGrpc(
      serviceError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'email_taken'),
    );
    expect([unavailable?.status, unavailable?.code]).toEqual([503, 'unavailable']);
  });

  it('every reason is sent with a status that maps to a 4xx', () => {
    for (const [reason, { status: code }] of Object.entries(REASONS)) {
      const http = httpErrorFromGrpc(serviceError(code, 'x', reason));
      expect([reason, (http?.status ?? 500) < 500]).toEqual([reason, true]);
    }
  });
});

describe('one zod → 400', () => {
  const schema = z.object({ email: z.email('Invalid email address'), name: z.string().min(2, 'Too short') });

  it("names the input and every broken rule, or only the first rule's own words", () => {
    const all = (() => {
      try {
        parseWith(schema, { email: 'x', name: 'y' }, { what: 'body' });
      } catch (err) {
        return err as InvalidInput;
      }
    })();
    expect(all).toBeInstanceOf(InvalidInput);
    expect([all?.status, all?.code, all?.message]).toEqual([
      400,
      'invalid_request',
      'Invalid body: email: Invalid email address; name: Too short',
    ]);
    expect(() => parseWith(schema, { email: 'x', name: 'y' }, { first: true })).toThrow(
      new InvalidInput('Invalid email address', []),
    );
    expect(parseWith(schema, { email: 'a@b.co', name: 'ok' })).toEqual({ email: 'a@b.co', name: 'ok' });
  });
});

describe('a reason over a real gRPC call', () => {
  const logger = createLogger('test');
  const server = createGrpcServer('test', logger);
  let client: ReturnType<typeof createGrpcClient<typeof identity.IdentityServiceService>>;

  beforeAll(async () => {
    // Three refusals behind one service definition: a reason, a service's own input check, and a plain status.
    server.add(identity.IdentityServiceService, {
      signIn: async () => {
        throw fail('email_not_confirmed', 'Email not confirmed');
      },
      signUp: async (req: { email: string }) => {
        parseWith(z.object({ email: z.email('Invalid email address') }), req, { first: true });
        return {};
      },
      refresh: async () => {
        throw new GrpcError(status.FAILED_PRECONDITION, 'Not now.');
      },
    } as never);
    const port = await server.listen('127.0.0.1', 0);
    server.setServing(true);
    client = createGrpcClient(identity.IdentityServiceService, `127.0.0.1:${port}`);
  });
  afterAll(async () => {
    client?.close();
    await server.stop(1000);
  });

  const failure = (call: Promise<unknown>) =>
    call.then(
      () => {
        throw new Error('the call succeeded');
      },
      (e: unknown) => e,
    );

  it('arrives in the metadata and maps to its code', async () => {
    const err = await failure(client.signIn({ email: 'a@b.co', password: 'secret-pass' }));
    expect(reasonOf(err)).toBe('email_not_confirmed');
    expect(httpErrorFromGrpc(err)).toMatchObject({
      status: 403,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });
  });

  it("a service's own input check arrives as invalid_request with the rule's words", async () => {
    const err = await failure(client.signUp({ email: 'nope', password: 'secret-pass' }));
    expect(reasonOf(err)).toBe('invalid_request');
    expect(httpErrorFromGrpc(err)).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'Invalid email address',
    });
  });

  it('a status without a reason keeps the code it always had', async () => {
    const err = await failure(client.refresh({ refreshToken: 'x' }));
    expect(reasonOf(err)).toBeUndefined();
    expect(httpErrorFromGrpc(err)).toMatchObject({
      status: 409,
      code: 'failed_precondition',
      message: 'Not now.',
    });
  });
});
