// Local-disk ObjectStore and the Express router that serves its signed links. Mount router() at the
// path publicBaseUrl points to (publicBaseUrl + '/objects/...' must reach it).

import type { Logger } from '@omni/platform';
import { createLogger } from '@omni/platform';
import type express from 'express';
import type { ObjectStore, UploadCredentials, UploadReplaceable } from '../port';
import { LocalDiskObjectStore, type LocalObjectStoreOptions } from './local-store';
import { createObjectsRouter } from './router';

export {
  InvalidBucketNameError,
  InvalidObjectKeyError,
  InvalidRangeError,
  ObjectSizeMismatchError,
  ObjectTooLargeError,
} from './errors';
export type { LocalObjectStoreOptions } from './local-store';
export { PRIVATE_PUBLIC_URL_SECONDS } from './local-store';

export interface LocalObjectStore extends ObjectStore {
  readonly kind: 'local';
  /**
   * PUT and GET /objects/:bucket/*key for the links this store signs. A PUT must carry a credential that
   * `credentials` maps to the owner the link was signed for; an overwrite link writes only while
   * `replaceable` says the object may still be replaced (default: always).
   */
  router(credentials: UploadCredentials, replaceable?: UploadReplaceable): express.Router;
}

class RoutedLocalObjectStore extends LocalDiskObjectStore implements LocalObjectStore {
  constructor(
    options: LocalObjectStoreOptions,
    private readonly routerLog: Logger,
  ) {
    super(options);
  }

  router(credentials: UploadCredentials, replaceable?: UploadReplaceable): express.Router {
    return createObjectsRouter(this, this.routerLog, credentials, replaceable);
  }
}

/**
 * publicUrl(): unsigned for buckets listed in publicBuckets (served to anyone), otherwise a signed GET link
 * valid for at least 7 days (expiry rounded to a whole day so the URL is stable within a day).
 */
export function createLocalObjectStore(options: {
  dataDir: string;
  publicBaseUrl: string;
  secret: string;
  publicBuckets?: string[];
  logger?: Logger;
}): LocalObjectStore {
  const logger = options.logger ?? createLogger('objects-local');
  return new RoutedLocalObjectStore({ ...options, logger }, logger);
}
