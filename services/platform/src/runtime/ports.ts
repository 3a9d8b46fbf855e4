// Chooses each port's adapter from validated configuration, once per process, and says loudly which one
// each port got (a silent fallback to an embedded engine is how production data ends up on a laptop disk).
// Production adapters are imported lazily so an all-in-one start does not load kafkajs, mongoose or minio.
import { join, resolve } from 'node:path';
import type { PlatformConfig } from '../config/config';
import type { ServiceName } from '../config/services';
import { dataDirSecret } from '../data-dir/secret-file';
import type { Logger } from '../logging/logger';
import type { DocumentStore } from '../ports/documents';
import type { EventBus } from '../ports/events';
import type { IdentityProvider } from '../ports/identity';
import type { Mailer } from '../ports/mail';
import type { ObjectStore } from '../ports/objects';

export interface Ports {
  /** Each service owns its data: its own embedded store folder, or its own MongoDB database. */
  documents(service: ServiceName): Promise<DocumentStore>;
  events(): Promise<EventBus>;
  objects(): Promise<ObjectStore>;
  /** Keycloak, or the embedded issuer (users in identity's document store). */
  identity(): Promise<IdentityProvider>;
  /** SMTP, or the dev mailbox under DATA_DIR/mailbox. */
  mail(): Promise<Mailer>;
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
  let identity: Promise<IdentityProvider> | undefined;
  let mail: Promise<Mailer> | undefined;

  const opened = async <T extends { ready(): Promise<void>; close?(): Promise<void> }>(
    what: string,
    make: () => Promise<T>,
  ) => {
    const adapter = await make();
    try {
      await adapter.ready();
    } catch (err) {
      await adapter.close?.().catch(() => undefined);
      throw new Error(`${what} is not reachable: ${(err as Error).message}`);
    }
    return adapter;
  };

  const ports: Ports = {
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
          publicBaseUrl: config.publicUrl,
          // Unset on one machine: a random secret made on first start and kept under the data folder
          // (owner-only). Production must set OBJECT_URL_SECRET, so every replica signs alike (config).
          secret: env.OBJECT_URL_SECRET ?? (await dataDirSecret(dataDir, 'object-url-secret')),
          // Storage's bucket policy (services/storage/src/domain/buckets.ts, `public: true`): cover art,
          // thumbnails and press kits are served to anyone; audio masters, contracts and the rest only
          // through signed links. Listed here because the platform may not import a service.
          publicBuckets: ['artwork', 'thumbnails', 'presskits'],
          logger,
        });
      });
      return objects;
    },
    identity() {
      identity ??= opened(`identity provider (${env.IDENTITY_PROVIDER})`, async () => {
        if (env.IDENTITY_PROVIDER === 'keycloak') {
          const { createKeycloakIdentityProvider } = await import('../adapters/identity-keycloak');
          return createKeycloakIdentityProvider({
            baseUrl: env.KEYCLOAK_URL!,
            realm: env.KEYCLOAK_REALM,
            issuer: env.KEYCLOAK_ISSUER,
            clientId: env.KEYCLOAK_CLIENT_ID,
            clientSecret: env.KEYCLOAK_CLIENT_SECRET!,
            logger,
          });
        }
        const { createEmbeddedIdentityProvider } = await import('../adapters/identity-embedded');
        const realm = `/realms/${env.KEYCLOAK_REALM}`;
        return createEmbeddedIdentityProvider({
          store: await ports.documents('identity'),
          issuer: `${config.publicUrl}${realm}`,
          jwksUrl: () => `${config.httpUrl('identity')}${realm}/protocol/openid-connect/certs`,
          logger,
        });
      });
      return identity;
    },
    mail() {
      mail ??= opened(`mail (${env.MAIL})`, async () => {
        if (env.MAIL === 'smtp') {
          const { createSmtpMailer } = await import('../adapters/mail-smtp');
          return createSmtpMailer({ url: env.SMTP_URL!, from: env.MAIL_FROM, logger });
        }
        const { createEmbeddedMailer } = await import('../adapters/mail-embedded');
        return createEmbeddedMailer({ dataDir: join(dataDir, 'mailbox'), logger });
      });
      return mail;
    },
    describe() {
      const where = (embedded: string, prod: string, isProd: boolean) => (isProd ? prod : embedded);
      return [
        `events    → ${where(`embedded log at ${join(dataDir, 'bus')}`, `kafka ${env.KAFKA_BROKERS}`, env.EVENT_BUS === 'kafka')}`,
        `documents → ${where(`embedded store at ${dataDir}/<service>`, 'mongodb (database per service)', env.DOCUMENT_STORE === 'mongodb')}`,
        `objects   → ${where(`local disk at ${join(dataDir, 'objects')} (HMAC-signed URLs)`, `minio ${env.S3_ENDPOINT}`, env.OBJECT_STORE === 'minio')}`,
        `identity  → ${where('embedded issuer (users in the identity store)', `keycloak ${env.KEYCLOAK_URL} realm ${env.KEYCLOAK_REALM}`, env.IDENTITY_PROVIDER === 'keycloak')}`,
        `mail      → ${where(`dev mailbox at ${join(dataDir, 'mailbox')}`, 'smtp', env.MAIL === 'smtp')}`,
      ];
    },
    async closeAll() {
      const all: Promise<{ close(): Promise<void> }>[] = [...stores.values()];
      if (bus) all.unshift(bus);
      if (objects) all.push(objects);
      if (identity) all.push(identity);
      if (mail) all.push(mail);
      await Promise.allSettled(all.map(async (p) => (await p).close()));
    },
  };
  return ports;
}
