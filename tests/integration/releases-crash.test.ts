// A crash between the release commit and the event publish must not lose the event: the release and its
// `release.created` are one transaction, and the outbox relay publishes whatever is left after restart.
// The first run gives catalog a bus that refuses every publish (a broker outage), so the event is certainly
// committed and unpublished when the platform goes down, instead of racing a kill against the relay.
import { randomUUID } from 'node:crypto';
import { createGrpcClient, type EventBus, type ServiceModule } from '@omni/platform';
import { catalog } from '@omni/proto';
import { catalogService } from '@omni/service-catalog';
import { type ReleasePlatform, releaseBody, startReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform | undefined;
afterAll(() => omni?.close());

/** The bus as catalog sees it while the broker is down: topics exist, every publish fails. */
function busDown(bus: EventBus): EventBus {
  const refuse = async () => {
    throw new Error('event bus unavailable (taken down by the test)');
  };
  return new Proxy(bus, {
    get(target, key) {
      if (key === 'publish') return refuse;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The real catalog module, given the bus above instead of the platform's. */
const catalogWithBusDown: ServiceModule = {
  ...catalogService,
  init: (ctx) =>
    catalogService.init({
      ...ctx,
      ports: { ...ctx.ports, events: async () => busDown(await ctx.ports.events()) },
    }),
};

interface Delivery {
  release: {
    id: string;
    tracks: { isrc: string }[];
    delivery: { total: number; byStatus: Record<string, number> };
  };
}

it('delivers release.created after a restart when the process went down before publishing it', async () => {
  omni = await startReleasePlatform(undefined, {}, { catalog: catalogWithBusDown });
  const owner = randomUUID();
  const token = await omni.token(owner);
  const res = await omni.api('/api/releases', {
    method: 'POST',
    token,
    json: releaseBody(owner, { stores: [] }),
  });
  expect(res.status).toBe(201);
  const { release } = (await res.json()) as Delivery;

  // Unpublished: well past the relay's usual latency, still no job exists.
  await new Promise((r) => setTimeout(r, 1500));
  const before = (await (await omni.api(`/api/releases/${release.id}`, { token })).json()) as Delivery;
  expect(before.release.delivery.total).toBe(0);

  const { dataDir } = omni;
  await omni.close({ keepData: true });
  // Back up with the bus working, as after a crash and a restart.
  omni = await startReleasePlatform(dataDir);
  const token2 = await omni.token(owner);
  const after = await waitUntil(
    async () => {
      const body = (await (
        await omni!.api(`/api/releases/${release.id}`, { token: token2 })
      ).json()) as Delivery;
      return body.release.delivery.total === 142 ? body : undefined;
    },
    10_000,
    '142 jobs after restart',
  );
  expect(after.release.delivery.byStatus).toEqual({ queued: 142 });

  // The ISRC counter survived the restart too: the next code follows the one given before the crash.
  const client = createGrpcClient(catalog.CatalogServiceService, omni.config.grpcAddress('catalog'));
  try {
    const { isrc } = await client.allocateIsrc({});
    const sequence = (code: string) => Number(code.slice(-5));
    expect(isrc.slice(0, 7)).toBe(release.tracks[0]!.isrc.slice(0, 7));
    expect(sequence(isrc)).toBe(sequence(release.tracks[0]!.isrc) + 1);
  } finally {
    client.close();
  }
}, 60_000);
