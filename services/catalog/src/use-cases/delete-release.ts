// DELETE /api/releases/:id: a release no store was ever sent goes, with its tracks, its versions and the
// files nothing else of the owner's uses. The gateway has delivery withdraw it first (delivery alone knows
// whether a message was made); catalog checks again what it knows (the status, a store's word).
import { fail } from '@omni/platform';
import { RELEASE_MESSAGES } from '@omni/proto/api';
import type { FileChecker } from '../domain/file-rules';
import type { FileRefDoc } from '../domain/release';
import type { CatalogStore } from '../store/catalog-store';
import { reachedStores } from './edit-release';

export async function deleteRelease(
  store: CatalogStore,
  files: FileChecker,
  ownerId: string,
  releaseId: string,
  onCleanupError: (err: unknown) => void = () => undefined,
): Promise<{ filesRemoved: number }> {
  const found = releaseId ? await store.releaseWithParts(releaseId) : null;
  // Someone else's release answers exactly like a missing one.
  if (!found || found.release.userId !== ownerId) throw fail('release_not_found', 'No such release.');
  const { release, tracks } = found;
  if (reachedStores(release)) throw fail('release_delivered', RELEASE_MESSAGES.deleteDelivered);
  await store.deleteRelease(release._id);
  // The files after the rows: a file still named by a release is never removed, and one left behind by a
  // failure here is only storage the owner can still see and remove in the console.
  const refs = new Map<string, FileRefDoc>();
  for (const ref of [release.artwork, ...tracks.map((t) => t.audio)]) {
    if (ref?.bucket && ref.fileKey) refs.set(`${ref.bucket}/${ref.fileKey}`, ref);
  }
  let filesRemoved = 0;
  for (const ref of refs.values()) {
    try {
      if (await store.fileInUse(ownerId, ref)) continue;
      await files.discard(ownerId, ref.bucket, ref.fileKey);
      filesRemoved++;
    } catch (err) {
      onCleanupError(err);
    }
  }
  return { filesRemoved };
}
