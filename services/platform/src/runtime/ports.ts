// Chooses the shared ports' adapters (documents, events) from validated configuration, once per process,
// and says loudly which one each got (a silent fallback to an embedded engine is how production data ends
// up on a laptop disk). A port only one service uses lives with that service (its src/providers/), which
// opens it with `openAdapter` and describes it through its module's `providers`.
// Production adapters are imported lazily so an all-in-one start does not load kafkajs or mongoose.
import { join, resolve } from 'node:path';
import type { PlatformConfig } from '../config/config';
import type { ServiceName } from '../config/services';
import type { Logger } from '../logging/logger';
import type { DocumentStore } from '../ports/documents';
import type { EventBus } from '../ports/events';

/** A service's store: its name, or `<service>-<part>` for another store it owns. */
export type StoreName = ServiceName | `${ServiceName}-${string}`;

export interface Ports {
  /**
   * Each service owns its data: its own embedded store folder, or its own MongoDB database. A service may
   * keep a second store of its own, named `<service>-<part>` (billing's checkout sandbox: 'billing-sandbox'),
   * so an adapter's records never share collections with the service's.
   */
  documents(service: StoreName): Promise<DocumentStore>;
  events(): Promise<EventBus>;
  /** One line per port and adapter, for the start-up banner. */
  describe(): string[];
  closeAll(): Promise<void>;
}

export function createPorts(config: PlatformConfig, logger: Logger): Ports {
  const env = config.env;
  const dataDir = resolve(config.dataDir);
  const stores = new Map<StoreName, Promise<DocumentStore>>();
  let bus: Promise<EventBus> | undefined;
  const opened = openAdapter;

  const ports: Ports = {
    documents(service) {
      let store = stores.get(service);
      if (!store) {
        store = opened(`documents (${env.DOCUMENT_STORE}) for ${service}`, async () => {
          if (env.DOCUMENT_STORE === 'mongodb') {
            const { createMongoDocumentStore } = await import('../adapters/documents-mongo');
            return createMongoDocumentStore({
              uri: env.MONGODB_URI!,
              dbName: `omni_${service}`,
              logger,
              transactions:
                env.MONGODB_TRANSACTIONS ?? (env.NODE_ENV === 'production' ? 'server' : 'journal'),
            });
          }
          // 'embedded' is the one-machine default: SQLite, one database file in the service's own folder.
          const { createSqliteDocumentStore } = await import('../adapters/documents-sqlite');
          return createSqliteDocumentStore({ dataDir: join(dataDir, service), logger, fsync: env.FSYNC });
        });
        stores.set(service, store);
        // A store that could not be reached is asked for afresh next time (a caller that opens it lazily,
        // like the gateway's shared rate limits, recovers once the database is back).
        const failed = store;
        failed.catch(() => {
          if (stores.get(service) === failed) stores.delete(service);
        });
      }
      return store;
    },
    events() {
      bus ??= opened(`event bus (${env.EVENT_BUS})`, async () => {
        if (env.EVENT_BUS === 'kafka') {
          const { createKafkaEventBus } = await import('../adapters/events-kafka');
          return createKafkaEventBus({
            brokers: env.KAFKA_BROKERS!.split(',').map((b) => b.trim()),
            clientId: env.KAFKA_CLIENT_ID,
            ssl: env.KAFKA_SSL,
            logger,
          });
        }
        const { createEmbeddedEventBus } = await import('../adapters/events-embedded');
        return createEmbeddedEventBus({ dataDir: join(dataDir, 'bus'), logger, fsync: env.FSYNC });
      });
      return bus;
    },
    describe() {
      const where = (embedded: string, prod: string, isProd: boolean) => (isProd ? prod : embedded);
      return [
        `events    → ${where(`embedded log at ${join(dataDir, 'bus')}`, `kafka ${env.KAFKA_BROKERS}`, env.EVENT_BUS === 'kafka')}`,
        `documents → ${where(`embedded SQLite at ${dataDir}/<service>/documents.sqlite`, 'mongodb (database per service)', env.DOCUMENT_STORE === 'mongodb')}`,
      ];
    },
    async closeAll() {
      const all: Promise<{ close(): Promise<void> }>[] = [...stores.values()];
      if (bus) all.unshift(bus);
      await Promise.allSettled(all.map(async (p) => (await p).close()));
    },
  };
  return ports;
}

/**
 * Makes an adapter and waits until it answers; one that does not is closed and refused with what it is
 * (a start-up error names the port and its technology, not only the driver's message).
 */
export async function openAdapter<T extends { ready(): Promise<void>; close?(): Promise<void> }>(
  what: string,
  make: () => Promise<T>,
): Promise<T> {
  const adapter = await make();
  try {
    await adapter.ready();
  } catch (err) {
    await adapter.close?.().catch(() => undefined);
    throw new Error(`${what} is not reachable: ${(err as Error).message}`);
  }
  return adapter;
}

/** Where a provider's adapter is, for the banner: the embedded description, or the production one. */
export const adapterLine = (port: string, embedded: string, production: string, isProduction: boolean) =>
  `${port.padEnd(9)} → ${isProduction ? production : embedded}`;
