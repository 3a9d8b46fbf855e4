// The runtime reads the declared service graph: services start after what they call, a cycle is refused
// before anything starts, and a call or a port a service did not declare is refused at its start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type ServiceModule, type ServiceName, startPlatform } from '@omni/platform';
import { catalog, health, storage } from '@omni/proto';
import { printBanner } from '@omni/server/src/banner';
import { MODULES } from '@omni/server/src/modules';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'omni-graph-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const configFor = (services: string) =>
  loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      OMNI_RANDOM_PORTS: 'true',
      BIND_HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:8080',
      LOG_LEVEL: 'warn',
    },
    [`--services=${services}`],
  );

/** A module that only records when it starts; its declaration is the test's. */
function stub(
  name: ServiceName,
  declared: Partial<ServiceModule>,
  started: string[] = [],
  init?: ServiceModule['init'],
): ServiceModule {
  return {
    name,
    description: `stub ${name}`,
    calls: [],
    consumes: [],
    produces: [],
    ports: [],
    ...declared,
    async init(ctx) {
      started.push(name);
      await init?.(ctx);
    },
  };
}

it('starts every service after the services it calls (the real graph)', async () => {
  const platform = await startPlatform(configFor('all'), MODULES);
  try {
    const order = platform.services;
    expect([...order].sort()).toEqual(Object.keys(MODULES).sort());
    for (const name of order) {
      for (const callee of MODULES[name].calls)
        expect(order.indexOf(callee)).toBeLessThan(order.indexOf(name));
    }
    // Catalog calls storage, which calls identity; the public gateway calls everyone and comes last.
    expect(order.indexOf('identity')).toBeLessThan(order.indexOf('storage'));
    expect(order.indexOf('storage')).toBeLessThan(order.indexOf('catalog'));
    expect(order.at(-1)).toBe('gateway');
    // The start-up banner lists them in that order, each with what it calls and consumes.
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    printBanner(platform, 1);
    const banner = String(log.mock.calls[0]?.[0]);
    log.mockRestore();
    const lines = banner.split('\n').filter((l) => /^ {4}[a-z]+ +grpc :/.test(l));
    expect(lines.map((l) => l.trim().split(' ')[0])).toEqual(order);
    expect(lines.find((l) => l.trim().startsWith('catalog'))).toMatch(/→ storage {2}⇐ delivery\.updated$/);
    expect(lines.find((l) => l.trim().startsWith('delivery'))).toMatch(
      /→ catalog, storage {2}⇐ release\.created, release\.resubmitted$/,
    );
    // Which adapter each shared port and each service's own provider got (embedded here).
    const adapters = banner.slice(banner.indexOf('adapters:'), banner.indexOf('services (in start order'));
    for (const line of [
      /events +→ embedded log at /,
      /documents +→ embedded SQLite at .*documents\.sqlite/,
      /objects +→ local disk at .*objects \(HMAC-signed URLs\)/,
      /identity +→ embedded issuer/,
      /mail +→ dev mailbox at .*mailbox/,
      /limits +→ memory of this process/,
    ])
      expect(adapters).toMatch(line);
  } finally {
    await platform.stop();
  }
});

it('orders by the declaration, not by the order the services are named in', async () => {
  const started: string[] = [];
  // The callee is listening by the time its caller starts: a health check from the caller's init succeeds.
  let calleeStatus: number | undefined;
  const modules = {
    ...MODULES,
    billing: stub('billing', { calls: ['finder'] }, started, async (ctx) => {
      const client = ctx.client('finder', health.HealthService);
      calleeStatus = (await client.check({ service: 'finder' }, { deadlineMs: 2000 })).status;
    }),
    finder: stub('finder', {}, started),
  };
  const platform = await startPlatform(configFor('billing,finder'), modules);
  await platform.stop();
  expect(started).toEqual(['finder', 'billing']);
  expect(platform.services).toEqual(['finder', 'billing']);
  expect(calleeStatus).toBe(health.HealthCheckResponse_ServingStatus.SERVING);
});

it('refuses a cycle in the declared calls before starting anything, naming it', async () => {
  const started: string[] = [];
  const modules = {
    ...MODULES,
    billing: stub('billing', { calls: ['finder'] }, started),
    finder: stub('finder', { calls: ['cms'] }, started),
    cms: stub('cms', { calls: ['billing'] }, started),
  };
  await expect(startPlatform(configFor('billing,finder,cms'), modules)).rejects.toThrow(
    'The service graph has a cycle (billing → finder → cms → billing)',
  );
  expect(started).toEqual([]);
  // Also when this process runs only one service of the cycle (one pod of the cluster).
  await expect(startPlatform(configFor('billing'), modules)).rejects.toThrow(/service graph has a cycle/);
  expect(started).toEqual([]);
});

it('refuses a client for a service that is not declared among the calls', async () => {
  const modules = {
    ...MODULES,
    billing: stub('billing', {}, [], async (ctx) => {
      ctx.client('catalog', catalog.CatalogServiceService);
    }),
  };
  await expect(startPlatform(configFor('billing'), modules)).rejects.toThrow(
    'billing calls catalog, which is not among the services it declares it calls (none).',
  );
});

it('refuses storage’s DeleteObject to a service that does not declare storage; cms declares it', async () => {
  let deleted = false;
  const modules = {
    ...MODULES,
    finder: stub('finder', {}, [], async (ctx) => {
      const client = ctx.client('storage', storage.StorageServiceService);
      await client.deleteObject({ ownerId: 'x', bucket: 'documents', fileKey: 'x/y.txt' });
      deleted = true;
    }),
  };
  await expect(startPlatform(configFor('finder'), modules)).rejects.toThrow(
    'finder calls storage, which is not among the services it declares it calls (none).',
  );
  expect(deleted).toBe(false);
  expect(MODULES.cms.calls).toContain('storage');
});

it('refuses a port that is not declared, and another service’s documents', async () => {
  const events = {
    ...MODULES,
    billing: stub('billing', {}, [], async (ctx) => void (await ctx.ports.events())),
  };
  await expect(startPlatform(configFor('billing'), events)).rejects.toThrow(
    'billing opens the events port, which is not among the ports it declares (none).',
  );
  const documents = {
    ...MODULES,
    billing: stub('billing', { ports: ['documents'] }, [], async (ctx) => {
      await ctx.ports.documents('identity');
    }),
  };
  await expect(startPlatform(configFor('billing'), documents)).rejects.toThrow(
    'billing opens the documents port of identity (each service owns its data)',
  );
});
