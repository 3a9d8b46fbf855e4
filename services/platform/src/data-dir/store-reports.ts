// The folder stores' sales and trend reports land in (a store's SFTP drop in production; the store
// simulator writes there under `npm start`), which royalties reads. One definition for the writer and the
// reader: STORE_REPORTS_DIR when services keep separate data folders, else beside DATA_DIR.
import { join } from 'node:path';
import type { PlatformConfig } from '../config/config';

export const storeReportsDir = (config: Pick<PlatformConfig, 'dataDir' | 'env'>) =>
  config.env.STORE_REPORTS_DIR ?? join(config.dataDir, 'store-reports');
