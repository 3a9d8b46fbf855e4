// Which object store this process gets: MinIO / any S3 API (production) or local disk behind HMAC-signed
// URL endpoints that storage serves itself. The minio client is loaded only when chosen.
import { join, resolve } from 'node:path';
import { adapterLine, dataDirSecret, type Logger, openAdapter, type PlatformConfig } from '@omni/platform';
import type { LocalObjectStore } from './local';
import type { ObjectStore } from './port';

/** The store, and the local store again when that is what it is (its router serves the signed URLs). */
export interface OpenedObjects {
  objects: ObjectStore;
  local?: LocalObjectStore;
}

/** `publicBuckets`: storage's bucket policy (domain/buckets.ts), served to anyone without a signature. */
export async function openObjectStore(
  config: PlatformConfig,
  logger: Logger,
  publicBuckets: readonly string[],
): Promise<OpenedObjects> {
  const env = config.env;
  const dataDir = resolve(config.dataDir);
  if (env.OBJECT_STORE === 'minio') {
    const objects = await openAdapter(`objects (${env.OBJECT_STORE})`, async () => {
      const { createMinioObjectStore } = await import('./minio');
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
    });
    return { objects };
  }
  const local = await openAdapter(`objects (${env.OBJECT_STORE})`, async () => {
    const { createLocalObjectStore } = await import('./local');
    return createLocalObjectStore({
      dataDir,
      publicBaseUrl: config.publicUrl,
      // Unset on one machine: a random secret made on first start and kept under the data folder
      // (owner-only). Production must set OBJECT_URL_SECRET, so every replica signs alike (config).
      secret: env.OBJECT_URL_SECRET ?? (await dataDirSecret(dataDir, 'object-url-secret')),
      publicBuckets: [...publicBuckets],
      logger,
    });
  });
  return { objects: local, local };
}

export const describeObjectStore = (config: PlatformConfig) =>
  adapterLine(
    'objects',
    `local disk at ${join(resolve(config.dataDir), 'objects')} (HMAC-signed URLs)`,
    `minio ${config.env.S3_ENDPOINT}`,
    config.env.OBJECT_STORE === 'minio',
  );
