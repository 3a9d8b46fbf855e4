// Upload links cannot be used to fill storage: a file whose submission loses the link's use or is refused
// after upload is deleted (unless an accepted asset points to it), and a link can hold only so many signed,
// unsubmitted files. Checked through HTTP against a started platform, reading the bytes on disk.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createGrpcClient, GrpcStatus } from '@omni/platform';
import { storage } from '@omni/proto';
import {
  type AssetJson,
  type CmsApi,
  cmsApi,
  contributorSignAndPut,
  createLink,
  submitContributorFile,
} from '../support/cms';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let api: CmsApi;
let admin: string;

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string; code: string } }).error;

const day = () => new Date().toISOString().slice(0, 10).replaceAll('-', '');

/** Every file under a folder. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The bytes stored for a bucket and key: files in the data folder whose path ends with it (not metadata). */
const storedFiles = (bucket: string, keyPrefix: string) =>
  filesUnder(platform.dataDir).filter((p) => p.includes(`/${bucket}/${keyPrefix}`) && !p.endsWith('.json'));

const note = (folder: string, i: number) => ({
  bucket: 'documents',
  folder,
  fileName: `note-${i}.txt`,
  contentType: 'text/plain',
  bytes: Buffer.from(`note ${i}`),
});

const sign = (token: string, body: Record<string, unknown>) =>
  api.call('/api/contributor/uploads-sign', {
    method: 'POST',
    uploadToken: token,
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  platform = await startTestPlatform();
  api = cmsApi(platform.url);
  const identity = await platform.ports.documents('identity');
  admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
});

afterAll(() => platform?.close());

describe('files that lose or are refused are deleted', () => {
  it('100 submissions racing on a max-5 link leave exactly the 5 accepted files in the bucket', async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 5 });
    const folder = 'race';
    const files = [];
    for (let i = 0; i < 100; i++) files.push(await contributorSignAndPut(api, token, note(folder, i)));
    expect(storedFiles('documents', `anon/${day()}/${folder}/`)).toHaveLength(100);
    const answers = await Promise.all(
      files.map((f) => submitContributorFile(api, token, { bucket: 'documents', fileKey: f.fileKey })),
    );
    const accepted = await Promise.all(
      answers
        .filter((r) => r.status === 201)
        .map(async (r) => ((await r.json()) as { asset: AssetJson }).asset),
    );
    expect(accepted).toHaveLength(5);
    expect(answers.filter((r) => r.status === 410)).toHaveLength(95);
    const left = storedFiles('documents', `anon/${day()}/${folder}/`).map((p) => p.split('/').pop());
    expect(left.sort()).toEqual(
      files
        .filter((_, i) => answers[i]!.status === 201)
        .map((f) => f.fileKey.split('/').pop())
        .sort(),
    );
    // The accepted ones still play for the moderator.
    for (const asset of accepted) {
      const media = await api.call(`/api/admin/assets/${asset.id}/media`, { token: admin });
      expect(media.status).toBe(302);
    }
  }, 120_000);

  it('deletes a file sent before its link was revoked, when it is submitted after', async () => {
    const { token, link } = await createLink(api, admin, { pageSlug: 'music', maxUses: 3 });
    const { fileKey } = await contributorSignAndPut(api, token, note('revoked', 1));
    expect(storedFiles('documents', fileKey)).toHaveLength(1);
    await api.call(`/api/admin/upload-links/${link.id}/revoke`, { method: 'POST', token: admin });
    const res = await submitContributorFile(api, token, { bucket: 'documents', fileKey });
    expect(res.status).toBe(410);
    expect(storedFiles('documents', fileKey)).toHaveLength(0);
  });

  it('never deletes a file an accepted asset points to (its sender re-sent the path, then lost)', async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 2 });
    const shared = note('upsert', 1);
    const first = await contributorSignAndPut(api, token, shared);
    expect(
      (await submitContributorFile(api, token, { bucket: 'documents', fileKey: first.fileKey })).status,
    ).toBe(201);
    // The same sender sends the same path again: a submitted file is never replaced, this one gets a new name.
    const again = await contributorSignAndPut(api, token, { ...shared, bytes: Buffer.from('second take') });
    expect(again.fileKey).toBe(first.fileKey.replace(/note-1\.txt$/, 'note-1-2.txt'));
    const other = await contributorSignAndPut(api, token, note('upsert', 2));
    expect(
      (await submitContributorFile(api, token, { bucket: 'documents', fileKey: other.fileKey })).status,
    ).toBe(201);
    // The re-sent file loses the (now used up) link and goes; the first, which an asset points to, stays.
    const lost = await submitContributorFile(api, token, { bucket: 'documents', fileKey: again.fileKey });
    expect(lost.status).toBe(410);
    expect(storedFiles('documents', again.fileKey)).toHaveLength(0);
    expect(storedFiles('documents', first.fileKey)).toHaveLength(1);
  });
});

describe('how many files a link holds before they are submitted', () => {
  it('refuses a 21st waiting file on a max-1 link with 409, and a refused file frees its place', async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 1 });
    for (let i = 0; i < 19; i++) await contributorSignAndPut(api, token, note('cap', i));
    const fake = await contributorSignAndPut(api, token, {
      bucket: 'artwork',
      folder: 'cap',
      fileName: 'fake.png',
      contentType: 'image/png',
      bytes: Buffer.from('not an image'),
    });
    const body = {
      bucket: 'documents',
      folder: 'cap',
      fileName: 'one-more.txt',
      contentType: 'text/plain',
      size: 5,
    };
    const refused = await sign(token, body);
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toEqual({
      code: 'link_uploads_waiting',
      message:
        'This link already has as many files waiting to be submitted as it allows. Submit the files you sent first; files never submitted stop counting about an hour after they were signed.',
    });
    // Storage refuses the fake image at submission (and removes it): its place under the cap is free again.
    expect(
      (await submitContributorFile(api, token, { bucket: 'artwork', fileKey: fake.fileKey })).status,
    ).toBe(400);
    expect((await sign(token, body)).status).toBe(200);
    expect((await sign(token, body)).status).toBe(409);
  });

  it('gives a link room for 20 waiting files per use it has left', async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 2 });
    const body = {
      bucket: 'documents',
      folder: 'room',
      fileName: 'n.txt',
      contentType: 'text/plain',
      size: 5,
    };
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++)
      statuses.push((await sign(token, { ...body, fileName: `n${i}.txt` })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses[40]).toBe(409);
  });
});

describe('DeleteObject (storage, service-to-service)', () => {
  it('deletes only the owner’s file, and a second delete is a no-op', async () => {
    const { token, link } = await createLink(api, admin, { pageSlug: 'music', maxUses: 1 });
    const { fileKey } = await contributorSignAndPut(api, token, note('rpc', 1));
    const rpc = createGrpcClient(storage.StorageServiceService, platform.config.grpcAddress('storage'));
    try {
      const stranger = rpc.deleteObject({ ownerId: 'someone-else', bucket: 'documents', fileKey });
      await expect(stranger).rejects.toMatchObject({ code: GrpcStatus.NOT_FOUND });
      expect(storedFiles('documents', fileKey)).toHaveLength(1);
      // The link alone is not the owner: its anonymous contributor is (the hash of their page's key).
      const linkOnly = rpc.deleteObject({ ownerId: `link:${link.id}`, bucket: 'documents', fileKey });
      await expect(linkOnly).rejects.toMatchObject({ code: GrpcStatus.NOT_FOUND });
      const owner = `link:${link.id}:${createHash('sha256').update(api.contributorKey).digest('hex')}`;
      expect(await rpc.deleteObject({ ownerId: owner, bucket: 'documents', fileKey })).toEqual({
        deleted: true,
      });
      expect(storedFiles('documents', fileKey)).toHaveLength(0);
      expect(await rpc.deleteObject({ ownerId: owner, bucket: 'documents', fileKey })).toEqual({
        deleted: false,
      });
    } finally {
      rpc.close();
    }
  });

  it('has no HTTP route: the gateway does not expose it', async () => {
    for (const path of ['/api/uploads/delete', '/api/contributor/delete', '/api/admin/objects/delete'])
      expect((await api.call(path, { method: 'POST', token: admin, body: '{}' })).status).toBe(404);
  });
});
