// Picks the store registry the configuration asks for, and opens a store's transport from its profile,
// resolving the credentials it names (a key file, env variables) only at that moment.
import { readFileSync } from 'node:fs';
import type { PlatformConfig } from '@omni/platform';
import { createLocalTransport } from '../transport/local';
import type { Transport } from '../transport/port';
import { createS3Transport } from '../transport/s3';
import { createSftpTransport } from '../transport/sftp';
import { fileRegistry, StoreRegistryError } from './file';
import type { StoreRegistry } from './port';
import type { StoreProfile } from './profile';
import { simulatorRegistry } from './simulator';

export async function openStoreRegistry(
  config: Pick<PlatformConfig, 'env'>,
  dataDir: string,
): Promise<StoreRegistry> {
  if (config.env.STORES === 'simulator') return simulatorRegistry(dataDir);
  const file = config.env.STORE_REGISTRY_FILE;
  // The configuration check already demands it; this keeps a hand-built config honest too.
  if (!file) throw new StoreRegistryError('STORES=registry needs STORE_REGISTRY_FILE');
  return fileRegistry(file);
}

/**
 * A transport to the store. Missing credentials are a StoreRegistryError naming the variable or file (not
 * its content): a person must fix the deployment, so the caller dead-letters rather than retries.
 */
export function openTransport(
  profile: StoreProfile,
  env: Record<string, string | undefined> = process.env,
): Transport {
  const { endpoint, ackFolder } = profile;
  const secret = (name: string) => {
    const value = env[name];
    if (!value) throw new StoreRegistryError(`store ${profile.key}: environment variable ${name} is not set`);
    return value;
  };
  switch (endpoint.protocol) {
    case 'local':
      return createLocalTransport({ root: endpoint.root, ackFolder });
    case 'sftp': {
      let privateKey: Buffer | undefined;
      if (endpoint.privateKeyFile) {
        try {
          privateKey = readFileSync(endpoint.privateKeyFile);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
          throw new StoreRegistryError(
            `store ${profile.key}: private key file ${endpoint.privateKeyFile} cannot be read (${code})`,
          );
        }
      }
      const fingerprint = endpoint.hostKeySha256?.replace(/^SHA256:/, '');
      return createSftpTransport({
        host: endpoint.host,
        port: endpoint.port,
        username: endpoint.username,
        root: endpoint.root,
        ackFolder,
        privateKey,
        password: endpoint.passwordEnv ? secret(endpoint.passwordEnv) : undefined,
        hostKey: fingerprint ? `SHA256:${fingerprint}` : undefined,
      });
    }
    case 's3':
      return createS3Transport({
        endPoint: endpoint.endPoint,
        port: endpoint.port,
        useSSL: endpoint.useSSL,
        region: endpoint.region,
        bucket: endpoint.bucket,
        prefix: endpoint.prefix,
        ackFolder,
        accessKey: secret(endpoint.accessKeyEnv),
        secretKey: secret(endpoint.secretKeyEnv),
      });
  }
}
