// The web app's HTML documents are answered before Express (gateway http/web/html-answers.ts). Each such
// answer must be the one the Express route gives: same status, headers (security headers and the page's
// CSP script hashes included) and bytes, for brotli, gzip and plain, HEAD, and 304 on a matching ETag.
// Compared here, over HTTP, between three servers on the real build (frontends/*/dist):
// - the Express app alone (the gateway's web routes mounted on the platform's app, no fast path),
// - the fast path alone, with every request it does not answer failing loudly (599),
// - the whole platform as `npm start` wires it.
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  createHttpApp,
  createLogger,
  dispatchWithFastPaths,
  publicCsp,
  securityHeaders,
} from '@omni/platform';
import { mountFrontends, SCREEN_PATHS } from '@omni/service-gateway/src/http/web/frontends';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const frontends = join(__dirname, '../../frontends');
const logger = createLogger('html-fast-path-test');

let platform: TestPlatform;
let expressAlone: Server;
let fastPathAlone: Server;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}
let urls: { express: string; fast: string; platform: string };

beforeAll(async () => {
  platform = await startTestPlatform();
  const csp = publicCsp(platform.config.publicUrl);
  const app = createHttpApp({ logger, csp });
  mountFrontends(app, frontends, { logger });
  expressAlone = createServer(app);
  const headers = securityHeaders(csp);
  const fastPath = mountFrontends(createHttpApp({ logger, csp }), frontends, {
    logger,
    policy: headers['content-security-policy'],
  });
  fastPathAlone = createServer(
    dispatchWithFastPaths(
      (_req, res) => res.writeHead(599).end('not answered on the fast path'),
      [fastPath],
      headers,
      logger,
    ),
  );
  urls = {
    express: await listen(expressAlone),
    fast: await listen(fastPathAlone),
    platform: platform.url.replace('localhost', '127.0.0.1'),
  };
});
afterAll(async () => {
  await new Promise((resolve) => expressAlone?.close(resolve));
  await new Promise((resolve) => fastPathAlone?.close(resolve));
  await platform?.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The raw answer (fetch would decompress the body and hide Content-Encoding's effect). */
function get(base: string, path: string, method: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        // Set by Node per connection and time, not by either path.
        const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: rest, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const PATHS = [
  ...SCREEN_PATHS,
  '/release/some-id',
  '/contact-sales?type=dpa',
  '/music?utm_source=newsletter',
  '/login?verify=some-token',
];
const ENCODINGS = ['br', 'gzip, deflate, br', 'gzip', 'br;q=0, gzip', 'br;q=0, gzip;q=0', ''];

/** The same request to all three servers; their answers must be identical. */
async function same(path: string, method: string, headers: Record<string, string>): Promise<Answer> {
  const [viaExpress, viaFastPath, viaPlatform] = await Promise.all([
    get(urls.express, path, method, headers),
    get(urls.fast, path, method, headers),
    get(urls.platform, path, method, headers),
  ]);
  const asked = { path, method, request: headers };
  expect({ asked, ...viaFastPath, body: viaFastPath.body.toString('base64') }).toEqual({
    asked,
    ...viaExpress,
    body: viaExpress.body.toString('base64'),
  });
  expect(viaPlatform.status).toBe(viaExpress.status);
  expect(viaPlatform.headers).toEqual(viaExpress.headers);
  expect(viaPlatform.body.equals(viaExpress.body)).toBe(true);
  return viaExpress;
}

it.each(PATHS)('%s: the fast path answers exactly as Express does', async (path) => {
  for (const acceptEncoding of ENCODINGS) {
    const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
    const page = await same(path, 'GET', headers);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    const etag = String(page.headers.etag);
    await same(path, 'HEAD', headers);
    // The client holds this version: 304, without the body or its type and length.
    const notModified = await same(path, 'GET', { ...headers, 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    await same(path, 'HEAD', { ...headers, 'if-none-match': `"other", ${etag}` });
    // A reload that asks past caches, and a stale version, get the page.
    expect(
      (await same(path, 'GET', { ...headers, 'if-none-match': etag, 'cache-control': 'no-cache' })).status,
    ).toBe(200);
    expect((await same(path, 'GET', { ...headers, 'if-none-match': 'W/"stale"' })).status).toBe(200);
  }
});

it.each([
  ['br', 'br'],
  ['gzip, deflate, br', 'br'],
  ['gzip;q=1, br;q=0.5', 'gzip'],
  ['br;q=0, gzip', 'gzip'],
  ['br;q=0, gzip;q=0', undefined],
  ['deflate', undefined],
])('Accept-Encoding %j gets %s, q-values included', async (acceptEncoding, encoding) => {
  const page = await same('/music', 'GET', { 'accept-encoding': acceptEncoding });
  expect(page.headers['content-encoding']).toBe(encoding);
});

it.each([
  ['gzip;q=1, br;q=0.5', 'gzip'],
  ['br;q=0, gzip', 'gzip'],
  ['gzip, deflate, br', 'br'],
  ['br;q=0, gzip;q=0', undefined],
])('a built script for Accept-Encoding %j comes %s, as pages do', async (acceptEncoding, encoding) => {
  const page = await get(urls.platform, '/', 'GET', { 'accept-encoding': 'identity' });
  const script = /<script[^>]+src="(\/[^"]+\.js)"/.exec(page.body.toString())?.[1];
  expect(script).toBeDefined();
  const asset = await get(urls.platform, script!, 'GET', { 'accept-encoding': acceptEncoding });
  expect(asset.status).toBe(200);
  expect(asset.headers['content-encoding']).toBe(encoding);
});

it('leaves paths that are no screen to Express (the not-found page, with its 404)', async () => {
  const viaFastPath = await get(urls.fast, '/no-such-page', 'GET', {});
  expect(viaFastPath.status).toBe(599);
  const viaPlatform = await get(urls.platform, '/no-such-page', 'GET', {});
  expect(viaPlatform.status).toBe(404);
});
