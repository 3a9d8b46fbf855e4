// One trace from the HTTP request through gRPC and the event bus to the consumer, in a real process
// started the way `npm start` starts it (OpenTelemetry's HTTP, Express and gRPC instrumentations load
// before the app; jest's module system would bypass them, hence the child process).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEmbeddedDocumentStore } from '@omni/platform/src/adapters/documents-embedded';
import { activeSigningKey } from '@omni/service-identity/src/keys/signing-keys';
import { signTestToken } from '../support/tokens';

const root = resolve(__dirname, '../..');
let child: ChildProcess | undefined;
let dataDir: string;

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await Promise.resolve(fn()).catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(async () => {
  child?.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('continues one trace from the HTTP request through gRPC and asset.approved to the storage consumer', async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omni-trace-'));
  const traceFile = join(dataDir, 'spans.jsonl');
  const port = await freePort();
  const publicUrl = `http://localhost:${port}`;

  // The issuer's key exists before start, so the test can sign an admin token with it.
  const identity = createEmbeddedDocumentStore({ dataDir: join(dataDir, 'identity') });
  await identity.ready();
  await activeSigningKey(identity);
  const admin = await signTestToken(identity, { roles: ['admin'], issuer: `${publicUrl}/realms/omni` });
  await identity.close();

  child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './services/platform/src/telemetry/register.ts', 'services/omni/src/main.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        OMNI_RANDOM_PORTS: 'true',
        HTTP_PORT: String(port),
        PUBLIC_URL: publicUrl,
        OMNI_TRACE_FILE: traceFile,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));

  await waitFor(async () => ((await fetch(`${publicUrl}/healthz`)).ok ? true : undefined), 30_000, `start-up:\n${output}`);

  const created = await fetch(`${publicUrl}/api/admin/assets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
    body: JSON.stringify({ pageSlug: 'music', kind: 'music', title: 'Traced' }),
  });
  expect(created.status).toBe(201);
  const { asset } = (await created.json()) as { asset: { id: string } };

  const traceId = randomBytes(16).toString('hex');
  const published = await fetch(`${publicUrl}/api/admin/assets/${asset.id}/publish`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
  });
  expect(published.status).toBe(200);

  type Span = { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string };
  const spans = await waitFor(
    () => {
      if (!existsSync(traceFile)) return undefined;
      const all = readFileSync(traceFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Span)
        .filter((s) => s.traceId === traceId);
      return all.some((s) => s.name === 'asset.approved process') ? all : undefined;
    },
    10_000,
    'the consumer span',
  );

  const names = spans.map((s) => s.name);
  // SpanKind: SERVER 1, CLIENT 2, CONSUMER 4.
  expect(spans.some((s) => s.kind === 1 && /POST/.test(s.name))).toBe(true);
  expect(names.some((n) => n.includes('omni.cms.v1.CmsService/PublishAsset'))).toBe(true);
  const consumer = spans.find((s) => s.name === 'asset.approved process')!;
  expect(consumer.kind).toBe(4);
  // The consumer's parent is a span of this same trace (the cms handler that wrote the outbox).
  expect(spans.map((s) => s.spanId)).toContain(consumer.parentSpanId);
}, 60_000);
