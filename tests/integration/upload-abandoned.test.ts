// Issue 21 §3.7: files uploaded for a release that was never made (the artist closed the tab between the
// upload and the submission) are removed after ABANDONED_UPLOAD_HOURS; the files of a release that was
// made stay, however old. Here the setting is 20 seconds, so the sweep runs every 2.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { png } from '../support/media';
import { uploadFile } from '../support/uploads';
import { createRealRelease, startDeliveryPlatform } from './delivery.fixtures';
import { type ReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform;
beforeAll(async () => {
  omni = await startDeliveryPlatform(undefined, { ABANDONED_UPLOAD_HOURS: String(20 / 3600) });
}, 60_000);
afterAll(() => omni?.close());

/** Every object under a bucket, as "key" paths. */
function objectsIn(bucket: string): string[] {
  const root = join(omni.dataDir, 'objects', bucket);
  const walk = (dir: string, prefix: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
        )
      : [];
  return walk(root, '');
}

it('removes the cover of a release never made, and keeps the files of one that was', async () => {
  const artist = randomUUID();
  const token = await omni.token(artist);
  const left = await uploadFile(omni.url, token, {
    bucket: 'omni-assets',
    fileName: 'left-behind.png',
    contentType: 'image/png',
    bytes: png(3000, 3000),
    role: 'artwork',
  });
  await createRealRelease(omni, artist, token, ['spotify']);
  const before = objectsIn('omni-assets');
  expect(before).toContain(left.fileKey);
  expect(before).toHaveLength(3);

  await waitUntil(
    async () => (objectsIn('omni-assets').includes(left.fileKey) ? undefined : true),
    60_000,
    'the abandoned cover removed',
  );
  // Swept at least once more after that, the release's master and cover are still there.
  await new Promise((r) => setTimeout(r, 4000));
  expect(objectsIn('omni-assets').sort()).toEqual(before.filter((k) => k !== left.fileKey).sort());
}, 120_000);
