// What cms's use cases work with: its repositories, its outbox, storage (the one judge of files) and the
// clock, built once by the module (index.ts).
import type { Outbox, PromiseClient } from '@omni/platform';
import type { storage } from '@omni/proto';
import type { AssetsRepository } from '../store/assets';
import type { LinkUploadsRepository } from '../store/link-uploads';
import type { PagesRepository } from '../store/pages';
import type { UploadLinksRepository } from '../store/upload-links';

export interface CmsContext {
  pages: PagesRepository;
  assets: AssetsRepository;
  links: UploadLinksRepository;
  /** Uploads signed through links, until settled (the signing cap and the cleanup read them). */
  linkUploads: LinkUploadsRepository;
  outbox: Outbox;
  storage: PromiseClient<typeof storage.StorageServiceService>;
  now: () => Date;
}

/** Storage inspects the whole file's headers; a slow disk under a large video deserves some slack. */
export const INSPECTION_DEADLINE_MS = 60_000;
