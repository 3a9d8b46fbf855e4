// What an operator relies on: a kill -9 at any moment loses no acknowledged write and no event, and a
// SIGTERM drains and exits cleanly. Runs the real binary twice on one data folder.
import { join } from 'node:path';
import type { Doc } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { adminUpload, cmsApi } from '../support/cms';
import { wav } from '../support/media';
import { type PlatformProcess, startPlatformProcess, waitFor } from '../support/process';

let omni: PlatformProcess | undefined;
afterAll(() => omni?.stop({ hard: true }));

it('keeps every acknowledged publish and delivers every event after kill -9 and restart', async () => {
  omni = await startPlatformProcess();
  const admin = await omni.token({ roles: ['admin'] });
  const api = cmsApi(omni.url);

  // An admin's upload is published at once (its asset.approved goes through the outbox).
  const acknowledged: string[] = [];
  for (let i = 0; i < 15; i++) {
    const asset = await adminUpload(
      api,
      admin,
      { pageSlug: 'music', kind: 'music', title: `Track ${i}` },
      { fileName: `track-${i}.wav`, contentType: 'audio/wav', bytes: wav(1) },
    );
    if (asset.status === 'published') acknowledged.push(asset.id);
  }
  // No grace: whatever the outbox relay or the consumer had in flight is cut off.
  const { dataDir } = omni;
  await omni.stop({ hard: true, keepData: true });

  omni = await startPlatformProcess({ dataDir });
  const list = (await (await fetch(`${omni.url}/api/pages/music/assets`)).json()) as {
    assets: { id: string }[];
  };
  expect(new Set(list.assets.map((a) => a.id))).toEqual(new Set(acknowledged));
  const code = await omni.stop({ keepData: true });
  expect(code).toBe(0); // SIGTERM drains and exits 0

  // Every approval reached storage exactly once, whether before the kill or after the restart.
  const storage = createSqliteDocumentStore({ dataDir: join(dataDir, 'storage') });
  await storage.ready();
  try {
    const publicObjects = storage.collection<Doc>('public_objects');
    const found = await waitFor(
      async () =>
        (await publicObjects.count({})) >= acknowledged.length ? publicObjects.find({}) : undefined,
      1000,
      'public objects',
    );
    expect(found.map((d) => d._id).sort()).toEqual([...acknowledged].sort());
  } finally {
    await storage.close();
  }
}, 90_000);
