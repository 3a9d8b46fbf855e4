// One trace from the HTTP request through gRPC and the event bus to the consumer, in a real process
// started the way `npm start` starts it (OpenTelemetry's HTTP, Express and gRPC instrumentations load
// before the app; jest's module system would bypass them, hence the child process).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cmsApi, contributorSignAndPut, createLink, submitContributorFile } from '../support/cms';
import { wav } from '../support/media';
import { type PlatformProcess, startPlatformProcess, waitFor } from '../support/process';

let omni: PlatformProcess | undefined;
afterAll(() => omni?.stop({ hard: true }));

it('continues one trace from the HTTP request through gRPC and asset.approved to the storage consumer', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-trace-'));
  const traceFile = join(dataDir, 'spans.jsonl');
  omni = await startPlatformProcess({ dataDir, env: { OMNI_TRACE_FILE: traceFile } });
  const admin = await omni.token({ roles: ['admin'] });

  // A contributor's submission waits in moderation; the admin's approval below is the traced request.
  const api = cmsApi(omni.url);
  const { token } = await createLink(api, admin, { pageSlug: 'music' });
  const { fileKey } = await contributorSignAndPut(api, token, {
    bucket: 'audio',
    fileName: 'traced.wav',
    contentType: 'audio/wav',
    bytes: wav(1),
  });
  const created = await submitContributorFile(api, token, { bucket: 'audio', fileKey, title: 'Traced' });
  expect(created.status).toBe(201);
  const { asset } = (await created.json()) as { asset: { id: string } };

  const traceId = randomBytes(16).toString('hex');
  const published = await fetch(`${omni.url}/api/admin/assets/${asset.id}/publish`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${admin}`,
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    },
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
      // The request's SERVER span ends when its response has finished, which can be after the consumer's
      // span was written: wait for both.
      const consumed = all.some((s) => s.name === 'asset.approved process');
      const served = all.some((s) => s.kind === 1 && /POST/.test(s.name));
      return consumed && served ? all : undefined;
    },
    10_000,
    "the consumer's span and the request's",
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
