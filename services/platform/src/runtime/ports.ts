// Chooses each port's adapter from validated configuration, once per process, and says loudly which one
// each port got (a silent fallback to an embedded engine is how production data ends up on a laptop disk).
// Production adapters are imported lazily so an all-in-one start does not load kafkajs, mongoose or minio.
import { join, resolve } from 'node:path';
import type { PlatformConfig } from '../config/config';
import type { ServiceName } from '../config/services';
import type { Logger } from '../logging/logger';
import type { DocumentStore } from '../ports/documents';
import type { EventBus } from '../ports/events';
import type { ObjectStore } from '../ports/objects';

export interface Ports {
  /** Each service owns its data: its own embedded store folder, or its own MongoDB database. */
  documents(service: ServiceName): Promise<DocumentStore>;
  events(): Promise<EventBus>;
  objects(): Promise<ObjectStore>;
  /** One line per port and adapter, for the start-up banner. */
  describe(): string[];
  closeAll(): Promise<void>;
}

export function createPorts(config: PlatformConfig, logger: Logger): Ports {
  const env = config.env;
  const dataDir = resolve(config.dataDir);
  const stores = new Map<ServiceName, Promise<DocumentStore>>();
  let bus: Promise<EventBus> | undefined;
  let objects: Promise<ObjectStore> | undefined;

  const opened = async <T extends { ready(): Promise<void> }>(what: string, make: () => Promise<T>) => {
    const adapter = await make();
    try {
      await adapter.ready();
    } catch (err) {
      throw new Error(`${what} is not reachable: ${(err as Error).message}`);
    }
    return adapter;
  };

  return {
    documents(service) {
      let store = stores.get(service);
      if (!store) {
        store = opened(`documents (${env.DOCUMENT_STORE}) for ${service}`, async () => {
          if (env.DOCUMENT_STORE === 'mongodb') {
            const { createMongoDocumentStore } = await import('../adapters/documents-mongo');
            return createMongoDocumentStore({ uri: env.MONGODB_URI!, dbName: `omni_${service}`, logger });
          }
          const { createEmbeddedDocumentStore } = await import('../adapters/documents-embedded');
          return createEmbeddedDocumentStore({ dataDir: join(dataDir, service), logger, fsync: env.FSYNC });
        });
        stores.set(service, store);
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
    objects() {
      objects ??= opened(`objects (${env.OBJECT_STORE})`, async () => {
        if (env.OBJECT_STORE === 'minio') {
          const { createMinioObjectStore } = await import('../adapters/objects-minio');
          return createMinioObjectStore({
            endPoint: env.S3_ENDPOINT!,
            port: env.S3_PORT,
            useSSL: env.S3_USE_SSL,
            accessKey: env.S3_ACCESS_KEY!,
            secretKey: env.S3_SECRET_KEY!,
            region: env.S3_REGION,
            publicBaseUrl: env.S3_PUBLIC_URL,
            logger,
          });
        }
        const { createLocalObjectStore } = await import('../adapters/objects-local');
        return createLocalObjectStore({
          dataDir,
          publicBaseUrl: env.PUBLIC_URL,
          // A development secret is fine on one machine; config refuses to start production without one.
          secret: env.OBJECT_URL_SECRET ?? 'omni-embedded-development-signing-secret',
          logger,
        });
      });
      return objects;
    },
    describe() {
      const where = (embedded: string, prod: string, isProd: boolean) => (isProd ? prod : embedded);
      return [
        `events    → ${where(`embedded log at ${join(dataDir, 'bus')}`, `kafka ${env.KAFKA_BROKERS}`, env.EVENT_BUS === 'kafka')}`,
        `documents → ${where(`embedded store at ${dataDir}/<service>`, 'mongodb (database per service)', env.DOCUMENT_STORE === 'mongodb')}`,
        `objects   → ${where(`local disk at ${join(dataDir, 'objects')} (HMAC-signed URLs)`, `minio ${env.S3_ENDPOINT}`, env.OBJECT_STORE === 'minio')}`,
      ];
    },
    async closeAll() {
      const all: Promise<{ close(): Promise<void> }>[] = [...stores.values()];
      if (bus) all.unshift(bus);
      if (objects) all.push(objects);
      await Promise.allSettled(all.map(async (p) => (await p).close()));
    },
  };
}
