// The folder stores' sales and trend reports land in (a store's SFTP drop in production; the store
// simulator writes there under `npm start`), which royalties reads. One definition for the writer and
// the reader, both of which run beside DATA_DIR.
import { join } from 'node:path';

export const storeReportsDir = (dataDir: string) => join(dataDir, 'store-reports');
