import { Metadata, status } from '@grpc/grpc-js';
import express from 'express';
import { z } from 'zod';
import { httpErrorFromGrpc } from '../src/grpc/errors';
import { createHttpApp, errorHandler } from '../src/http/app';
import { parseBody } from '../src/http/validate';
import { createLogger } from '../src/logging/logger';

const serviceError = (code: status, details: string) =>
  Object.assign(new Error(details), { code, details, metadata: new Metadata() });

describe('gRPC status → HTTP', () => {
  it.each([
    [status.INVALID_ARGUMENT, 400],
    [status.UNAUTHENTICATED, 401],
    [status.PERMISSION_DENIED, 403],
    [status.NOT_FOUND, 404],
    [status.ALREADY_EXISTS, 409],
    [status.FAILED_PRECONDITION, 409],
    [status.RESOURCE_EXHAUSTED, 429],
    [status.UNAVAILABLE, 503],
    [status.DEADLINE_EXCEEDED, 504],
  ])('maps %s to %s', (code, http) => {
    expect(httpErrorFromGrpc(serviceError(code, 'x'))?.status).toBe(http);
  });

  it('keeps a 4xx message and hides an internal one', () => {
    expect(httpErrorFromGrpc(serviceError(status.NOT_FOUND, "There is no page called 'x'."))?.message).toBe(
      "There is no page called 'x'.",
    );
    expect(httpErrorFromGrpc(serviceError(status.INTERNAL, 'TypeError at db.ts:4'))).toBeUndefined();
  });
});

describe('HTTP app', () => {
  const logger = createLogger('test');
  let url: string;
  let server: ReturnType<express.Express['listen']>;

  beforeAll(async () => {
    const app = createHttpApp({ logger });
    app.post('/api/echo', (req, res) => {
      const body = parseBody(z.object({ name: z.string().min(1) }).strict(), req);
      res.json(body);
    });
    app.put('/objects/:key', async (req, res) => {
      // A streaming route reads its own body, whatever its type.
      let bytes = 0;
      for await (const chunk of req) bytes += (chunk as Buffer).length;
      res.json({ bytes });
    });
    app.get('/boom', () => {
      throw new Error('secret internals at /srv/app.ts:12');
    });
    app.use(errorHandler(logger, httpErrorFromGrpc));
    await new Promise<void>((r) => {
      server = app.listen(0, '127.0.0.1', () => r());
    });
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const post = (body: string, type = 'application/json') =>
    fetch(`${url}/api/echo`, { method: 'POST', headers: { 'content-type': type }, body });

  it('answers malformed JSON with 400 and a readable message', async () => {
    const res = await post('{"name":');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { message: 'The request body is not valid JSON.', code: 'invalid_json' },
    });
  });

  it('answers wrong types and unknown fields with 400 naming the field', async () => {
    const wrong = await post(JSON.stringify({ name: 3 }));
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(
      /^Invalid body: name: /,
    );
    const extra = await post(JSON.stringify({ name: 'a', admin: true }));
    expect(extra.status).toBe(400);
  });

  it('answers a huge body with 413', async () => {
    const res = await post(JSON.stringify({ name: 'x'.repeat(1_100_000) }));
    expect(res.status).toBe(413);
  });

  it('leaves bodies outside /api to the route: a JSON-typed upload arrives whole, not consumed', async () => {
    const res = await fetch(`${url}/objects/a.json`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"tracks":[1,2,3]}',
      signal: AbortSignal.timeout(5000),
    });
    expect(await res.json()).toEqual({ bytes: 18 });
  });

  it('answers an unexpected failure with a plain 500 that leaks nothing', async () => {
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret internals|app\.ts/);
    expect(JSON.parse(text).error.message).toMatch(/Please try again/);
  });
});

describe('a client that goes away', () => {
  it('is not logged as a failure of ours', async () => {
    const errors: unknown[] = [];
    const logger = createLogger('test');
    const spyLogger = Object.assign(Object.create(logger), {
      error: (...args: unknown[]) => errors.push(args),
      debug: () => undefined,
    });
    const app = createHttpApp({ logger });
    let failed: Promise<void> = Promise.resolve();
    app.get('/file', (_req, res, next) => {
      // What express's sendFile reports when the browser aborts mid-download.
      failed = new Promise<void>((r) => {
        setTimeout(() => {
          next(Object.assign(new Error('Request aborted'), { code: 'ECONNABORTED' }));
          setImmediate(r);
        }, 20);
      });
      res.write('partial');
    });
    app.use(errorHandler(spyLogger, httpErrorFromGrpc));
    const server = await new Promise<ReturnType<express.Express['listen']>>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    try {
      const ctrl = new AbortController();
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/file`, {
        signal: ctrl.signal,
      });
      expect(res.status).toBe(200);
      ctrl.abort();
      await new Promise((r) => setTimeout(r, 50));
      await failed;
      expect(errors).toEqual([]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
