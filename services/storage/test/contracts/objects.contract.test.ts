// Contract suite for the objects port. The same cases run against:
//   (a) the local-disk adapter, always, with its signed-URL router on an ephemeral loopback server;
//   (b) the minio adapter against the S3 server the s3 engine runs (@20minutes/s3rver behind our front,
//       scripts/engines/s3-server.ts), in-process: the adapter's S3 protocol path, and its presigned URLs
//       refused when signed with the wrong secret, tampered with, expired, or sent with another type or
//       size than signed (s3rver 3.x accepted any signature, so these cases would pass nothing);
//   (c) the minio adapter against a real S3 server (the s3 engine as its own process, MinIO, S3) when
//       S3_ENDPOINT (+ S3_ACCESS_KEY, S3_SECRET_KEY) is set: `npm run engines` exports them.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { type S3Server, startS3Server } from '../../../../scripts/engines/s3-server';
import { createLocalObjectStore, type LocalObjectStore } from '../../src/providers/objects/local';
import { createMinioObjectStore } from '../../src/providers/objects/minio';
import {
  BucketNotFoundError,
  ObjectExistsError,
  ObjectNotFoundError,
  type ObjectStore,
  UploadCredentialError,
} from '../../src/providers/objects/port';
import { type EphemeralServer, startEphemeralServer } from '../support/objects-http';

const MiB = 1024 * 1024;
// The minio adapter's smallest part size: keeps the memory test meaningful and multipart reachable.
const PART_SIZE = 5 * MiB;

// Uploads are bound to an owner subject. The local router is given a fixture credential check (the bearer
// names the subject it proves); storage supplies the real one, over access tokens.
const OWNER = 'user:contract-owner';
const AS_OWNER = { Authorization: `Bearer ${OWNER}` };
const bearerIsSubject = async (headers: Record<string, string | string[] | undefined>) => {
  const value = headers.authorization;
  if (typeof value !== 'string') return undefined;
  if (value === 'Bearer expired')
    throw new UploadCredentialError('Your session has expired. Please sign in again.');
  return value.replace(/^Bearer /, '');
};

interface Harness {
  store: ObjectStore;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function chunked(parts: (Buffer | string)[]): Readable {
  return Readable.from(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

/** Emits `bytesBeforeError` bytes, then fails like a dropped upstream connection. */
function failingStream(bytesBeforeError: number): Readable {
  let sent = 0;
  const chunk = Buffer.alloc(256 * 1024, 7);
  return new Readable({
    read() {
      if (sent >= bytesBeforeError) {
        this.destroy(new Error('upstream connection reset'));
        return;
      }
      const n = Math.min(chunk.length, bytesBeforeError - sent);
      sent += n;
      this.push(chunk.subarray(0, n));
    },
  });
}

/** A full garbage collection, without needing node --expose-gc on the jest command line. */
function exposedGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

let bucketCounter = 0;
function uniqueBucket(): string {
  bucketCounter += 1;
  return `omni-ct-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}-${bucketCounter}`;
}

function contractCases(getHarness: () => Harness): void {
  const store = () => getHarness().store;

  test('a bucket does not exist until ensured, and ensuring twice is harmless', async () => {
    const bucket = uniqueBucket();
    expect(await store().bucketExists(bucket)).toBe(false);
    await store().ensureBucket(bucket);
    expect(await store().bucketExists(bucket)).toBe(true);
    await store().ensureBucket(bucket);
    expect(await store().bucketExists(bucket)).toBe(true);
  });

  test('put, stat, get, list and remove round trip', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    const body = 'hello, streaming world';
    const put = await store().putObject(
      bucket,
      'releases/r1/cover.txt',
      chunked(['hello, ', 'streaming ', 'world']),
      {
        contentType: 'text/plain',
        metadata: { Owner: 'artist-1' },
      },
    );
    expect(put).toMatchObject({
      bucket,
      key: 'releases/r1/cover.txt',
      size: body.length,
      contentType: 'text/plain',
    });
    expect(put.etag).toBe(createHash('md5').update(body).digest('hex'));

    const stat = await store().statObject(bucket, 'releases/r1/cover.txt');
    expect(stat).toMatchObject({ size: body.length, contentType: 'text/plain', etag: put.etag });
    expect(stat?.metadata).toEqual({ owner: 'artist-1' });
    expect(stat?.lastModified).toBeInstanceOf(Date);

    expect((await readAll(await store().getObject(bucket, 'releases/r1/cover.txt'))).toString()).toBe(body);

    await store().putObject(bucket, 'releases/r1/audio.txt', Buffer.from('a'), { contentType: 'text/plain' });
    await store().putObject(bucket, 'releases/r2/audio.txt', Buffer.from('b'), { contentType: 'text/plain' });
    await store().putObject(bucket, 'top.txt', Buffer.from('c'), { contentType: 'text/plain' });
    const all = await store().listObjects(bucket);
    expect(all.map((o) => o.key)).toEqual([
      'releases/r1/audio.txt',
      'releases/r1/cover.txt',
      'releases/r2/audio.txt',
      'top.txt',
    ]);
    const r1 = await store().listObjects(bucket, 'releases/r1/');
    expect(r1.map((o) => o.key)).toEqual(['releases/r1/audio.txt', 'releases/r1/cover.txt']);
    expect(r1[1]).toMatchObject({
      contentType: 'text/plain',
      size: body.length,
      metadata: { owner: 'artist-1' },
    });
    expect((await store().listObjects(bucket, 'releases/r')).map((o) => o.key)).toHaveLength(3);

    await store().removeObject(bucket, 'releases/r1/cover.txt');
    expect(await store().statObject(bucket, 'releases/r1/cover.txt')).toBeNull();
    // Removing what is not there is not an error, as in S3.
    await expect(store().removeObject(bucket, 'releases/r1/cover.txt')).resolves.toBeUndefined();
    expect((await store().listObjects(bucket, 'releases/r1/')).map((o) => o.key)).toEqual([
      'releases/r1/audio.txt',
    ]);
  });

  test('a second put to the same key is refused with ObjectExistsError; overwrite:true replaces it', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    await store().putObject(bucket, 'k.txt', Buffer.from('first'), { contentType: 'text/plain' });
    await expect(
      store().putObject(bucket, 'k.txt', chunked(['second']), { contentType: 'text/plain' }),
    ).rejects.toBeInstanceOf(ObjectExistsError);
    expect((await readAll(await store().getObject(bucket, 'k.txt'))).toString()).toBe('first');

    const replaced = await store().putObject(bucket, 'k.txt', chunked(['third!']), {
      contentType: 'application/json',
      overwrite: true,
    });
    expect(replaced.size).toBe(6);
    expect((await readAll(await store().getObject(bucket, 'k.txt'))).toString()).toBe('third!');
    expect(await store().statObject(bucket, 'k.txt')).toMatchObject({
      contentType: 'application/json',
      size: 6,
    });
  });

  test('range reads are inclusive, open-ended ranges run to the end', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    await store().putObject(bucket, 'digits', Buffer.from('0123456789'), { contentType: 'text/plain' });
    expect((await readAll(await store().getObject(bucket, 'digits', { start: 2, end: 5 }))).toString()).toBe(
      '2345',
    );
    expect((await readAll(await store().getObject(bucket, 'digits', { start: 7 }))).toString()).toBe('789');
    expect((await readAll(await store().getObject(bucket, 'digits', { start: 0, end: 0 }))).toString()).toBe(
      '0',
    );
    expect(
      (await readAll(await store().getObject(bucket, 'digits', { start: 8, end: 100 }))).toString(),
    ).toBe('89');
  });

  test('missing objects and buckets give null or the port errors', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    expect(await store().statObject(bucket, 'nope')).toBeNull();
    await expect(store().getObject(bucket, 'nope')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store().getObject(bucket, 'nope', { start: 1, end: 2 })).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
    const missingBucket = uniqueBucket();
    await expect(store().listObjects(missingBucket)).rejects.toBeInstanceOf(BucketNotFoundError);
    await expect(
      store().putObject(missingBucket, 'k', Buffer.from('x'), { contentType: 'text/plain' }),
    ).rejects.toBeInstanceOf(BucketNotFoundError);
  });

  test('a body that errors midway leaves no object behind (small and multipart-sized)', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    await expect(
      store().putObject(bucket, 'small', failingStream(1000), { contentType: 'audio/mpeg' }),
    ).rejects.toThrow('upstream connection reset');
    // Past one part, so the minio adapter has started (and must abort) a multipart upload.
    await expect(
      store().putObject(bucket, 'large', failingStream(PART_SIZE + MiB), { contentType: 'audio/mpeg' }),
    ).rejects.toThrow('upstream connection reset');
    expect(await store().statObject(bucket, 'small')).toBeNull();
    expect(await store().statObject(bucket, 'large')).toBeNull();
    expect(await store().listObjects(bucket)).toEqual([]);
    // The key is still free afterwards.
    await store().putObject(bucket, 'large', Buffer.from('ok'), { contentType: 'audio/mpeg' });
  });

  test('a declared size that the body does not match stores nothing', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    await expect(
      store().putObject(bucket, 'short', chunked(['abc']), { contentType: 'text/plain', size: 10 }),
    ).rejects.toThrow(/declared/);
    expect(await store().statObject(bucket, 'short')).toBeNull();
  });

  test('a 50 MB streamed put keeps memory growth well under the object size', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    const size = 50 * MiB;
    // One reused chunk: the test's own body costs no memory, so growth is the adapter's (and, for s3rver,
    // the in-process server's).
    const chunk = Buffer.alloc(64 * 1024, 0x5a);
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    // Live memory, not garbage awaiting collection: collect before each sample.
    const gc = exposedGc();
    gc();
    const baseline = used();
    let peak = baseline;
    let produced = 0;
    const body = new Readable({
      read() {
        if (produced >= size) return void this.push(null);
        if (produced % (5 * MiB) === 0) {
          gc();
          peak = Math.max(peak, used());
        }
        produced += chunk.length;
        this.push(chunk);
      },
    });
    const info = await store().putObject(bucket, 'big.bin', body, {
      contentType: 'application/octet-stream',
      size,
    });
    expect(info.size).toBe(size);
    const growth = peak - baseline;
    if (process.env.OBJECTS_MEM_DEBUG) console.log(`growth ${(growth / MiB).toFixed(1)} MiB`);
    // Generous: a part in flight and stream buffers, but nowhere near the object itself.
    expect(growth).toBeLessThan(size * 0.4);
    expect((await store().statObject(bucket, 'big.bin'))?.size).toBe(size);
    const tail = await readAll(await store().getObject(bucket, 'big.bin', { start: size - 4 }));
    expect(tail).toEqual(Buffer.alloc(4, 0x5a));
  });

  /** The headers an uploader sends: S3 refuses a second auth mechanism, so the bearer goes to our own URLs. */
  const uploaderHeaders = (
    signed: { headers: Record<string, string> },
    extra: Record<string, string> = {},
  ) => ({
    ...signed.headers,
    ...(store().kind === 'local' ? AS_OWNER : {}),
    ...extra,
  });

  test('a presigned PUT URL accepts the upload and a presigned GET URL serves it', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    const upload = await store().presignPut(bucket, 'uploads/song one.mp3', {
      expiresInSeconds: 300,
      maxSize: 14,
      contentType: 'audio/mpeg',
      owner: OWNER,
    });
    expect(upload.method).toBe('PUT');
    expect(upload.headers['Content-Type']).toBe('audio/mpeg');
    expect(upload.expiresAt.getTime()).toBeGreaterThan(Date.now() + 200_000);
    const put = await fetch(upload.url, {
      method: 'PUT',
      headers: uploaderHeaders(upload),
      body: 'ID3-fake-audio',
    });
    expect(put.status).toBe(200);
    expect(await store().statObject(bucket, 'uploads/song one.mp3')).toMatchObject({
      size: 14,
      contentType: 'audio/mpeg',
    });
    const get = await fetch(await store().presignGet(bucket, 'uploads/song one.mp3', 300));
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('ID3-fake-audio');
  });

  test('a presigned PUT refuses another Content-Type and a bigger body, and stores nothing', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    const upload = await store().presignPut(bucket, 'cover.jpg', {
      expiresInSeconds: 300,
      maxSize: 6,
      contentType: 'image/jpeg',
      owner: OWNER,
    });
    const send = (headers: Record<string, string>, body: string) =>
      fetch(upload.url, { method: 'PUT', headers: uploaderHeaders(upload, headers), body });
    // The local store says which limit (400, 413); S3 only that the request is not the one signed (403).
    const otherType = await send({ 'Content-Type': 'text/html' }, '<b>hi');
    expect(otherType.status).toBeGreaterThanOrEqual(400);
    expect(otherType.status).toBeLessThan(500);
    const bigger = await send({}, 'x'.repeat(7));
    expect(bigger.status).toBeGreaterThanOrEqual(400);
    expect(bigger.status).toBeLessThan(500);
    expect(await store().statObject(bucket, 'cover.jpg')).toBeNull();
    // The refusals left the link usable for the file it was signed for.
    const ok = await send({}, 'JFIF!!');
    expect(ok.status).toBe(200);
    expect((await store().statObject(bucket, 'cover.jpg'))?.size).toBe(6);
  });

  test('the same PUT without the signature is refused, and stores nothing', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    const upload = await store().presignPut(bucket, 'unsigned.mp3', {
      expiresInSeconds: 300,
      maxSize: 3,
      contentType: 'audio/mpeg',
      owner: OWNER,
    });
    const bare = new URL(upload.url);
    bare.search = '';
    const res = await fetch(bare, { method: 'PUT', headers: uploaderHeaders(upload), body: 'abc' });
    expect(res.status).toBe(403);
    expect(await store().statObject(bucket, 'unsigned.mp3')).toBeNull();
    // Nor may anyone read a private object without a signed link.
    await store().putObject(bucket, 'private.txt', Buffer.from('secret'), { contentType: 'text/plain' });
    const signedGet = new URL(await store().presignGet(bucket, 'private.txt', 60));
    signedGet.search = '';
    expect((await fetch(signedGet)).status).toBe(403);
  });

  test('a presigned GET serves a byte range as 206 with only those bytes', async () => {
    const bucket = uniqueBucket();
    await store().ensureBucket(bucket);
    await store().putObject(bucket, 'digits.txt', Buffer.from('0123456789'), { contentType: 'text/plain' });
    const url = await store().presignGet(bucket, 'digits.txt', 60);
    const res = await fetch(url, { headers: { Range: 'bytes=2-5' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await res.text()).toBe('2345');
    const tail = await fetch(url, { headers: { Range: 'bytes=7-' } });
    expect(tail.status).toBe(206);
    expect(await tail.text()).toBe('789');
  });

  test('publicUrl names the bucket and the encoded key', () => {
    const url = store().publicUrl('artwork', 'covers/a b.jpg');
    expect(url).toMatch(/\/artwork\/covers\/a%20b\.jpg(\?|$)/);
  });

  test('ready and healthy report a usable store', async () => {
    await expect(store().ready()).resolves.toBeUndefined();
    expect(await store().healthy()).toBe(true);
  });
}

// ---------------------------------------------------------------------------------------------------
// (a) local disk, always
// ---------------------------------------------------------------------------------------------------
describe('objects contract: local disk adapter', () => {
  let dataDir: string;
  let server: EphemeralServer;
  let local: LocalObjectStore;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-objects-'));
    server = await startEphemeralServer();
    local = createLocalObjectStore({
      dataDir,
      publicBaseUrl: server.baseUrl,
      secret: 'contract-test-secret-0123456789',
      publicBuckets: ['artwork'],
    });
    server.mount(local.router(bearerIsSubject));
    await local.ready();
  });
  afterAll(async () => {
    await local.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  contractCases(() => ({ store: local }));

  test('failed puts leave no temp files behind (local-only)', async () => {
    const bucket = uniqueBucket();
    await local.ensureBucket(bucket);
    await expect(
      local.putObject(bucket, 'x', failingStream(5000), { contentType: 'text/plain' }),
    ).rejects.toThrow();
    expect(fs.readdirSync(path.join(dataDir, 'objects', '_tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'objects', bucket, 'x'))).toBe(false);
  });

  test('concurrent no-overwrite puts to one key: exactly one wins (local-only)', async () => {
    const bucket = uniqueBucket();
    await local.ensureBucket(bucket);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        local.putObject(bucket, 'race', chunked([`writer-${i}`]), { contentType: 'text/plain' }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    for (const r of lost) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ObjectExistsError);
    const winner = (won[0] as PromiseFulfilledResult<{ etag: string }>).value;
    expect((await local.statObject(bucket, 'race'))?.etag).toBe(winner.etag);
  });

  test('keys that could escape the bucket are refused with a clear error (local-only)', async () => {
    const bucket = uniqueBucket();
    await local.ensureBucket(bucket);
    for (const key of ['../escape', 'a/../../b', '/abs', 'a\\b', 'a//b', 'nul\0byte', 'trailing/', '', '.']) {
      await expect(
        local.putObject(bucket, key, Buffer.from('x'), { contentType: 'text/plain' }),
      ).rejects.toThrow(/Invalid object key/);
    }
    expect(fs.readdirSync(path.join(dataDir, 'objects')).sort()).not.toContain('escape');
    await expect(local.ensureBucket('../etc')).rejects.toThrow(/not a valid bucket name/);
  });

  test('publicUrl is unsigned for public buckets and a long-lived signed link otherwise (local-only)', async () => {
    expect(local.publicUrl('artwork', 'a.jpg')).toBe(`${server.baseUrl}/objects/artwork/a.jpg`);
    const privateUrl = new URL(local.publicUrl('audio', 'a.mp3'));
    expect(privateUrl.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(privateUrl.searchParams.get('expires'))).toBeGreaterThanOrEqual(
      Date.now() / 1000 + 7 * 24 * 3600,
    );
  });

  // -------------------------------------------------------------------------------------------------
  // HTTP endpoints through the real router (the minio adapter's signature cases are in (b))
  // -------------------------------------------------------------------------------------------------
  describe('signed-URL HTTP endpoints of the local store', () => {
    let bucket: string;
    beforeEach(async () => {
      bucket = uniqueBucket();
      await local.ensureBucket(bucket);
    });

    async function errorOf(res: Awaited<ReturnType<typeof fetch>>): Promise<string> {
      const body = (await res.json()) as { error?: { message?: string } };
      return body.error?.message ?? '';
    }

    test('presigned PUT then GET, with ETag, nosniff and 304 on If-None-Match', async () => {
      const up = await local.presignPut(bucket, 'a/song.mp3', {
        expiresInSeconds: 60,
        maxSize: 100,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      const put = await fetch(up.url, {
        method: 'PUT',
        headers: { ...up.headers, ...AS_OWNER },
        body: 'abcdef',
      });
      expect(put.status).toBe(200);
      const json = (await put.json()) as { bucket: string; key: string; size: number; etag: string };
      expect(json).toEqual({
        bucket,
        key: 'a/song.mp3',
        size: 6,
        etag: createHash('md5').update('abcdef').digest('hex'),
      });

      const url = await local.presignGet(bucket, 'a/song.mp3', 60);
      const get = await fetch(url);
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('audio/mpeg');
      expect(get.headers.get('content-length')).toBe('6');
      expect(get.headers.get('etag')).toBe(`"${json.etag}"`);
      expect(get.headers.get('x-content-type-options')).toBe('nosniff');
      expect(get.headers.get('cache-control')).toMatch(/max-age=3600/);
      expect(await get.text()).toBe('abcdef');

      const again = await fetch(url, { headers: { 'If-None-Match': `"${json.etag}"` } });
      expect(again.status).toBe(304);
    });

    test('GET with Range answers 206 with Content-Range and Cache-Control max-age=3600', async () => {
      await local
        .putObject('artwork', 'cover.jpg', Buffer.from('0123456789'), { contentType: 'image/jpeg' })
        .catch(async (err) => {
          if (!(err instanceof BucketNotFoundError)) throw err;
          await local.ensureBucket('artwork');
          await local.putObject('artwork', 'cover.jpg', Buffer.from('0123456789'), {
            contentType: 'image/jpeg',
          });
        });
      // Public bucket: no signature needed, and shared caches may keep it for the spec's 3600 s.
      const res = await fetch(local.publicUrl('artwork', 'cover.jpg'), { headers: { Range: 'bytes=2-5' } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe('bytes 2-5/10');
      expect(res.headers.get('content-length')).toBe('4');
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(await res.text()).toBe('2345');

      const suffix = await fetch(local.publicUrl('artwork', 'cover.jpg'), { headers: { Range: 'bytes=-3' } });
      expect(suffix.status).toBe(206);
      expect(await suffix.text()).toBe('789');
      const outside = await fetch(local.publicUrl('artwork', 'cover.jpg'), {
        headers: { Range: 'bytes=50-' },
      });
      expect(outside.status).toBe(416);
    });

    test('an unsigned GET of a private bucket, a tampered or expired GET link is 403; a missing file 404', async () => {
      await local.putObject(bucket, 'p.txt', Buffer.from('secret'), { contentType: 'text/plain' });
      const unsigned = await fetch(`${server.baseUrl}/objects/${bucket}/p.txt`);
      expect(unsigned.status).toBe(403);
      const url = new URL(await local.presignGet(bucket, 'p.txt', 60));
      url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 1000));
      const tampered = await fetch(url);
      expect(tampered.status).toBe(403);
      expect(await errorOf(tampered)).toBe('This download link is not valid for this file.');
      const missing = await fetch(await local.presignGet(bucket, 'other.txt', 60));
      expect(missing.status).toBe(404);
    });

    test('an expired upload link is 403 with a message a person understands', async () => {
      const realNow = Date.now;
      let up: Awaited<ReturnType<typeof local.presignPut>>;
      try {
        // Sign as if two minutes ago, with a one-minute lifetime.
        Date.now = () => realNow() - 120_000;
        up = await local.presignPut(bucket, 'late.mp3', {
          expiresInSeconds: 60,
          maxSize: 100,
          contentType: 'audio/mpeg',
          owner: OWNER,
        });
      } finally {
        Date.now = realNow;
      }
      const res = await fetch(up.url, {
        method: 'PUT',
        headers: { ...up.headers, ...AS_OWNER },
        body: 'abc',
      });
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toBe('This upload link has expired. Request a new one.');
      expect(await local.statObject(bucket, 'late.mp3')).toBeNull();
    });

    test('a link used for another key, or with a tampered signature or limit, is 403', async () => {
      const up = await local.presignPut(bucket, 'mine.mp3', {
        expiresInSeconds: 60,
        maxSize: 100,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      const otherKey = up.url.replace('/mine.mp3?', '/theirs.mp3?');
      const res1 = await fetch(otherKey, {
        method: 'PUT',
        headers: { ...up.headers, ...AS_OWNER },
        body: 'abc',
      });
      expect(res1.status).toBe(403);
      expect(await errorOf(res1)).toBe('This upload link is not valid for this file.');

      const url = new URL(up.url);
      const sig = url.searchParams.get('sig')!;
      url.searchParams.set('sig', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
      const res2 = await fetch(url, { method: 'PUT', headers: { ...up.headers, ...AS_OWNER }, body: 'abc' });
      expect(res2.status).toBe(403);

      const bigger = new URL(up.url);
      bigger.searchParams.set('maxSize', '100000000');
      const res3 = await fetch(bigger, {
        method: 'PUT',
        headers: { ...up.headers, ...AS_OWNER },
        body: 'abc',
      });
      expect(res3.status).toBe(403);

      const unsigned = await fetch(`${server.baseUrl}/objects/${bucket}/mine.mp3`, {
        method: 'PUT',
        body: 'abc',
      });
      expect(unsigned.status).toBe(403);
      expect(await local.statObject(bucket, 'mine.mp3')).toBeNull();
      expect(await local.statObject(bucket, 'theirs.mp3')).toBeNull();
    });

    test('only the owner the link was signed for may use it; refusals leave the slot free for them', async () => {
      const up = await local.presignPut(bucket, 'owned.mp3', {
        expiresInSeconds: 60,
        maxSize: 100,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      const send = (url: string | URL, headers: Record<string, string>) =>
        fetch(url, { method: 'PUT', headers: { ...up.headers, ...headers }, body: 'intruder' });

      const anonymous = await send(up.url, {});
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
      expect(await errorOf(anonymous)).toBe(
        'Sign in to upload: this upload link works only for the account that requested it.',
      );
      const someoneElse = await send(up.url, { Authorization: 'Bearer user:someone-else' });
      expect(someoneElse.status).toBe(403);
      expect(await errorOf(someoneElse)).toBe(
        'This upload link was issued to another account. Request your own upload link.',
      );
      const stale = await send(up.url, { Authorization: 'Bearer expired' });
      expect(stale.status).toBe(401);
      expect(await errorOf(stale)).toBe('Your session has expired. Please sign in again.');
      // Rewriting the owner in the link breaks its signature.
      const rebound = new URL(up.url);
      rebound.searchParams.set('owner', 'user:someone-else');
      const forged = await send(rebound, { Authorization: 'Bearer user:someone-else' });
      expect(forged.status).toBe(403);
      expect(await errorOf(forged)).toBe('This upload link is not valid for this file.');
      expect(await local.statObject(bucket, 'owned.mp3')).toBeNull();

      const owner = await fetch(up.url, {
        method: 'PUT',
        headers: { ...up.headers, ...AS_OWNER },
        body: 'mine',
      });
      expect(owner.status).toBe(200);
      expect((await readAll(await local.getObject(bucket, 'owned.mp3'))).toString()).toBe('mine');
    });

    test('a Content-Type other than the signed one is 400', async () => {
      const up = await local.presignPut(bucket, 'a.mp3', {
        expiresInSeconds: 60,
        maxSize: 100,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      const res = await fetch(up.url, {
        method: 'PUT',
        headers: { 'Content-Type': 'text/html', ...AS_OWNER },
        body: '<script>',
      });
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatch(/audio\/mpeg/);
      expect(await local.statObject(bucket, 'a.mp3')).toBeNull();
    });

    test('over maxSize by Content-Length is 413 before the body is read', async () => {
      const up = await local.presignPut(bucket, 'big.mp3', {
        expiresInSeconds: 60,
        maxSize: 10,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      const res = await fetch(up.url, {
        method: 'PUT',
        headers: { ...up.headers, ...AS_OWNER },
        body: 'x'.repeat(11),
      });
      expect(res.status).toBe(413);
      expect(await errorOf(res)).toMatch(/larger than the upload link allows/);
      expect(await local.statObject(bucket, 'big.mp3')).toBeNull();
    });

    test('over maxSize in a chunked stream is 413 and nothing is written', async () => {
      const up = await local.presignPut(bucket, 'stream.mp3', {
        expiresInSeconds: 60,
        maxSize: 64 * 1024,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      async function* body() {
        for (let i = 0; i < 8; i++) yield new Uint8Array(16 * 1024).fill(1);
      }
      const res = await fetch(up.url, {
        method: 'PUT',
        headers: { ...up.headers, ...AS_OWNER },
        body: Readable.toWeb(Readable.from(body())) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await local.statObject(bucket, 'stream.mp3')).toBeNull();
      expect(fs.readdirSync(path.join(dataDir, 'objects', '_tmp'))).toEqual([]);

      // Exactly maxSize, also chunked, is accepted.
      const ok = await local.presignPut(bucket, 'exact.mp3', {
        expiresInSeconds: 60,
        maxSize: 64 * 1024,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      async function* exact() {
        for (let i = 0; i < 4; i++) yield new Uint8Array(16 * 1024).fill(2);
      }
      const res2 = await fetch(ok.url, {
        method: 'PUT',
        headers: { ...ok.headers, ...AS_OWNER },
        body: Readable.toWeb(Readable.from(exact())) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      expect(res2.status).toBe(200);
      expect((await local.statObject(bucket, 'exact.mp3'))?.size).toBe(64 * 1024);
    });

    test('path tricks (..%2F, encoded NUL, raw dot segments, bad escapes) are 400', async () => {
      const up = await local.presignPut(bucket, 'x/y.mp3', {
        expiresInSeconds: 60,
        maxSize: 100,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      for (const trick of ['x/..%2F..%2Fy.mp3', 'x/%00y.mp3', 'x/..%5Cy.mp3', 'x//y.mp3', 'x/%E0%A4%A']) {
        const res = await fetch(up.url.replace('x/y.mp3', trick), {
          method: 'PUT',
          headers: { ...up.headers, ...AS_OWNER },
          body: 'abc',
        });
        expect([trick, res.status]).toEqual([trick, 400]);
        expect(await errorOf(res)).not.toBe('');
        const get = await fetch(up.url.replace('x/y.mp3', trick));
        expect([trick, get.status]).toEqual([trick, 400]);
      }
      // fetch normalises '/../'; a raw request does not.
      const { port, hostname } = new URL(server.baseUrl);
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          { host: hostname, port, method: 'GET', path: `/objects/${bucket}/x/../../../etc/passwd` },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(400);
      expect(fs.readdirSync(path.join(dataDir, 'objects', bucket))).toEqual([]);
    });

    test('an upload to an existing key is 409 and leaves the first file intact', async () => {
      await local.putObject(bucket, 'taken.mp3', Buffer.from('first'), { contentType: 'audio/mpeg' });
      const up = await local.presignPut(bucket, 'taken.mp3', {
        expiresInSeconds: 60,
        maxSize: 100,
        contentType: 'audio/mpeg',
        owner: OWNER,
      });
      const res = await fetch(up.url, {
        method: 'PUT',
        headers: { ...up.headers, ...AS_OWNER },
        body: 'second',
      });
      expect(res.status).toBe(409);
      expect((await readAll(await local.getObject(bucket, 'taken.mp3'))).toString()).toBe('first');
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// What only an S3 server can be asked: its SigV4 verdicts, signing for a public host, and answering
// browsers on another origin. Run against (b) and (c).
// ---------------------------------------------------------------------------------------------------
interface S3Target {
  /** http://host:port */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region?: string;
}

function minioStore(target: S3Target, overrides: { secretKey?: string; publicBaseUrl?: string } = {}) {
  return createMinioObjectStore({
    endPoint: target.endpoint,
    accessKey: target.accessKey,
    secretKey: overrides.secretKey ?? target.secretKey,
    region: target.region,
    publicBaseUrl: overrides.publicBaseUrl,
    partSize: PART_SIZE,
  });
}

function s3Cases(getTarget: () => S3Target, getStore: () => ObjectStore): void {
  const upload = { maxSize: 6, contentType: 'audio/mpeg', owner: OWNER };
  const put = (signed: { url: string; headers: Record<string, string> }, url = signed.url) =>
    fetch(url, { method: 'PUT', headers: signed.headers, body: 'abcdef' });
  /** S3 names its refusal in an XML <Code>; the adapter's caller sees the status, the code says why. */
  const codeOf = async (res: Awaited<ReturnType<typeof fetch>>) =>
    /<Code>([^<]+)<\/Code>/.exec(await res.text())?.[1];
  let bucket: string;

  beforeEach(async () => {
    bucket = uniqueBucket();
    await getStore().ensureBucket(bucket);
  });

  test('publicUrl is <endpoint>/<bucket>/<key> when no public base URL is set', () => {
    expect(getStore().publicUrl('artwork', 'a/b c.jpg')).toBe(`${getTarget().endpoint}/artwork/a/b%20c.jpg`);
  });

  test('a URL signed with the right secret is accepted, and the bytes are stored', async () => {
    const res = await put(await getStore().presignPut(bucket, 'ok.mp3', { ...upload, expiresInSeconds: 60 }));
    expect(res.status).toBe(200);
    expect((await readAll(await getStore().getObject(bucket, 'ok.mp3'))).toString()).toBe('abcdef');
  });

  test('a URL signed with the wrong secret is refused (403 SignatureDoesNotMatch), and nothing is stored', async () => {
    const forger = minioStore(getTarget(), { secretKey: `${getTarget().secretKey}-not-it` });
    try {
      const res = await put(
        await forger.presignPut(bucket, 'forged.mp3', { ...upload, expiresInSeconds: 60 }),
      );
      expect(res.status).toBe(403);
      expect(await codeOf(res)).toBe('SignatureDoesNotMatch');
    } finally {
      await forger.close();
    }
    expect(await getStore().statObject(bucket, 'forged.mp3')).toBeNull();
  });

  test('a signed URL pointed at another key or given a longer life is refused (403)', async () => {
    const signed = await getStore().presignPut(bucket, 'mine.mp3', { ...upload, expiresInSeconds: 60 });
    const otherKey = signed.url.replace('/mine.mp3?', '/theirs.mp3?');
    expect(otherKey).not.toBe(signed.url);
    const longer = new URL(signed.url);
    longer.searchParams.set('X-Amz-Expires', '604800');
    for (const url of [otherKey, longer.toString()]) {
      const res = await put(signed, url);
      expect(res.status).toBe(403);
      expect(await codeOf(res)).toBe('SignatureDoesNotMatch');
    }
    expect(await getStore().statObject(bucket, 'theirs.mp3')).toBeNull();
    expect(await getStore().statObject(bucket, 'mine.mp3')).toBeNull();
  });

  test('a PUT of another type or size than signed is refused as SignatureDoesNotMatch', async () => {
    const signed = await getStore().presignPut(bucket, 'typed.mp3', { ...upload, expiresInSeconds: 60 });
    const otherType = await fetch(signed.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/html' },
      body: 'abcdef',
    });
    expect([otherType.status, await codeOf(otherType)]).toEqual([403, 'SignatureDoesNotMatch']);
    for (const body of ['abcdefg', 'abc']) {
      const res = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body });
      expect([body, res.status, await codeOf(res)]).toEqual([body, 403, 'SignatureDoesNotMatch']);
    }
    expect(await getStore().statObject(bucket, 'typed.mp3')).toBeNull();
  });

  test('an expired URL is refused (403 AccessDenied)', async () => {
    const signed = await getStore().presignPut(bucket, 'late.mp3', { ...upload, expiresInSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const res = await put(signed);
    expect(res.status).toBe(403);
    expect(await codeOf(res)).toBe('AccessDenied');
    expect(await getStore().statObject(bucket, 'late.mp3')).toBeNull();
  });

  test('with a public base URL, presigned URLs are signed for that host and work there', async () => {
    // The services reach the store at 127.0.0.1 (its in-cluster name); browsers at localhost (its ingress).
    // SigV4 signs the Host header: a URL signed for the inner name would not verify if merely rewritten.
    const inner = new URL(getTarget().endpoint);
    if (inner.hostname !== '127.0.0.1') return;
    const publicOrigin = `http://localhost:${inner.port}`;
    const exposed = minioStore(getTarget(), { publicBaseUrl: publicOrigin });
    try {
      const signed = await exposed.presignPut(bucket, 'song.mp3', { ...upload, expiresInSeconds: 60 });
      expect(new URL(signed.url).origin).toBe(publicOrigin);
      expect((await put(signed)).status).toBe(200);
      const url = await exposed.presignGet(bucket, 'song.mp3', 60);
      expect(new URL(url).origin).toBe(publicOrigin);
      const get = await fetch(url, { headers: { range: 'bytes=1-2' } });
      expect(get.status).toBe(206);
      expect(await get.text()).toBe('bc');
      expect(exposed.publicUrl(bucket, 'song.mp3')).toBe(`${publicOrigin}/${bucket}/song.mp3`);
    } finally {
      await exposed.close();
    }
  });

  test('a page on another origin may PUT to a presigned URL (CORS) and read the ETag back', async () => {
    const signed = await getStore().presignPut(bucket, 'from-browser.mp3', {
      ...upload,
      expiresInSeconds: 60,
    });
    const origin = 'http://localhost:8080';
    const preflight = await fetch(signed.url, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expect([origin, '*']).toContain(preflight.headers.get('access-control-allow-origin'));
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/PUT/);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(/content-type/);
    const res = await fetch(signed.url, {
      method: 'PUT',
      headers: { ...signed.headers, Origin: origin },
      body: 'abcdef',
    });
    expect(res.status).toBe(200);
    expect([origin, '*']).toContain(res.headers.get('access-control-allow-origin'));
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toMatch(/etag/);
    expect(res.headers.get('etag')).toBe(`"${createHash('md5').update('abcdef').digest('hex')}"`);
  });
}

// ---------------------------------------------------------------------------------------------------
// (b) minio adapter against the S3 server the s3 engine runs (scripts/engines/s3-server.ts), in-process
// ---------------------------------------------------------------------------------------------------
describe('objects contract: minio adapter on an in-process S3 server that verifies SigV4', () => {
  let server: S3Server;
  let directory: string;
  let target: S3Target;
  let store: ObjectStore;

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-s3-'));
    const secretKey = randomBytes(18).toString('base64url');
    server = await startS3Server({
      directory,
      port: 0,
      accessKey: 'omni-contract',
      secretKey,
      publicBuckets: ['artwork'],
    });
    target = { endpoint: server.url, accessKey: 'omni-contract', secretKey };
    store = minioStore(target);
  });
  afterAll(async () => {
    await store?.close();
    await server?.close();
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
  });

  contractCases(() => ({ store }));
  describe('S3 only', () =>
    s3Cases(
      () => target,
      () => store,
    ));

  test("s3rver's built-in S3RVER key, known to everyone, is refused", async () => {
    const bucket = uniqueBucket();
    await store.ensureBucket(bucket);
    const known = minioStore({ ...target, accessKey: 'S3RVER', secretKey: 'S3RVER' });
    try {
      const signed = await known.presignPut(bucket, 'k.txt', {
        maxSize: 1,
        contentType: 'text/plain',
        owner: OWNER,
        expiresInSeconds: 60,
      });
      const res = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: 'x' });
      expect(res.status).toBe(403);
      expect(await res.text()).toMatch(/<Code>InvalidAccessKeyId<\/Code>/);
      await expect(known.listObjects(bucket)).rejects.toMatchObject({ code: 'InvalidAccessKeyId' });
    } finally {
      await known.close();
    }
    expect(await store.statObject(bucket, 'k.txt')).toBeNull();
  });

  test('objects of a public bucket are readable without a signature; writing there still needs one', async () => {
    await store.ensureBucket('artwork');
    await store.putObject('artwork', 'covers/a b.jpg', Buffer.from('JFIF'), {
      contentType: 'image/jpeg',
      overwrite: true,
    });
    const res = await fetch(store.publicUrl('artwork', 'covers/a b.jpg'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(await res.text()).toBe('JFIF');
    const write = await fetch(store.publicUrl('artwork', 'covers/other.jpg'), { method: 'PUT', body: 'x' });
    expect(write.status).toBe(403);
    const listing = await fetch(`${target.endpoint}/artwork`);
    expect(listing.status).toBe(403);
  });
});

// ---------------------------------------------------------------------------------------------------
// (c) minio adapter against a real S3 server (the s3 engine, MinIO, S3), when one is configured
// ---------------------------------------------------------------------------------------------------
const s3Endpoint = process.env.S3_ENDPOINT;
if (s3Endpoint) {
  describe(`objects contract: minio adapter on real S3 at ${s3Endpoint}`, () => {
    const scheme = process.env.S3_USE_SSL === 'true' ? 'https' : 'http';
    const endpoint = s3Endpoint.includes('://')
      ? new URL(s3Endpoint).origin
      : `${scheme}://${s3Endpoint}${process.env.S3_PORT ? `:${process.env.S3_PORT}` : ''}`;
    const target: S3Target = {
      endpoint,
      accessKey: process.env.S3_ACCESS_KEY ?? '',
      secretKey: process.env.S3_SECRET_KEY ?? '',
      region: process.env.S3_REGION,
    };
    const store = minioStore(target);
    afterAll(() => store.close());
    contractCases(() => ({ store }));
    describe('S3 only', () =>
      s3Cases(
        () => target,
        () => store,
      ));
  });
} else {
  console.log('[contract] s3: SKIPPED — S3_ENDPOINT not set');
  describe.skip('objects contract: minio adapter on real S3: SKIPPED — S3_ENDPOINT not set', () => {
    test('needs S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY', () => undefined);
  });
}
