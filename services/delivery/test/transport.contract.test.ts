// Contract suite for the store transport port, the same cases against each connector and a real server:
//   local - a temp folder;
//   sftp  - Debian's sshd started here on loopback (SKIPPED, with the reason, when it cannot start);
//   s3    - @20minutes/s3rver, which verifies SigV4 signatures.
// The store's side is observed on the server: sftp-server's own log of opens and renames, s3rver's
// object-created events, the folder's ctimes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { createLocalTransport } from '../src/providers/transport/local';
import type { Batch, Transport } from '../src/providers/transport/port';
import { TransportError } from '../src/providers/transport/port';
import { createS3Transport } from '../src/providers/transport/s3';
import { createSftpTransport } from '../src/providers/transport/sftp';
import { type RunningS3rver, startS3rver } from './support/s3rver';
import { freePort, type RunningSshd, startSshd } from './support/sshd';

interface Harness {
  /** Whether the connector writes a temporary name first (S3 does not: a PUT lands whole or not at all). */
  writesTemp: boolean;
  transport(): Transport;
  /** The same endpoint with a wrong key / secret; undefined where there is no login (local). */
  withBadCredentials?(): Transport;
  /** The store's files under their final names (relative, temp files included: they end .omni-part). */
  files(): Promise<string[]>;
  read(rel: string): Promise<Buffer>;
  /** Final names in the order the server saw them become final. */
  finalOrder(batchFolder: string): string[];
  /** How many times the server made each final name (write-then-rename or PUT). */
  landings(rel: string): number;
  /** Writes an acknowledgement on the store's side, as the store would. */
  writeAck(name: string, body: string): Promise<void>;
  /** A transport aimed at a server that accepts a connection and drops it at once. */
  droppingServerPort?: number;
  endpointAt?(port: number): Transport;
  stop(): Promise<void>;
}

let batchCounter = 0;
function nextBatchId(): string {
  batchCounter += 1;
  return `20260101120000${String(batchCounter).padStart(3, '0')}`;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface TestBatch {
  batch: Batch;
  opened: Map<string, number>;
  contents: Map<string, Buffer>;
}

/** Three files and a manifest; `failAt` makes that file's source die halfway, as a crash would. */
function makeBatch(batchId: string, failAt?: string): TestBatch {
  const folder = `N_${batchId}`;
  const opened = new Map<string, number>();
  const contents = new Map<string, Buffer>();
  const spec: [string, Buffer][] = [
    [`${folder}/0602445790166/0602445790166.xml`, Buffer.from(`<NewReleaseMessage id="${batchId}"/>`)],
    [`${folder}/0602445790166/resources/0602445790166_T1_A1.flac`, Buffer.alloc(300_000, 1)],
    [`${folder}/0602445790166/resources/0602445790166_T2_A2.jpg`, Buffer.alloc(120_000, 2)],
  ];
  const source = (p: string, data: Buffer) => () => {
    opened.set(p, (opened.get(p) ?? 0) + 1);
    if (p.endsWith(failAt ?? '\0')) {
      const half = data.subarray(0, data.length / 2);
      return new Readable({
        read() {
          if (this.readableLength === 0 && !(this as { sent?: boolean }).sent) {
            (this as { sent?: boolean }).sent = true;
            this.push(half);
          } else {
            // Long enough for the first half to reach the server before the "crash".
            setTimeout(() => this.destroy(new Error('process killed mid-transfer')), 300);
          }
        },
      });
    }
    return Readable.from([data.subarray(0, 50_000), data.subarray(50_000)]);
  };
  for (const [p, data] of spec) contents.set(p, data);
  const manifestBody = Buffer.from(`<BatchComplete batch="${batchId}"/>`);
  const manifestPath = `${folder}/BatchComplete_${batchId}.xml`;
  contents.set(manifestPath, manifestBody);
  return {
    opened,
    contents,
    batch: {
      batchId,
      folder,
      files: spec.map(([p, data]) => ({
        path: p,
        size: data.length,
        sha256: sha(data),
        source: source(p, data),
      })),
      manifest: {
        size: manifestBody.length,
        sha256: sha(manifestBody),
        source: source(manifestPath, manifestBody),
      },
    },
  };
}

async function errorOf(promise: Promise<unknown>): Promise<TransportError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(TransportError);
    return err as TransportError;
  }
  throw new Error('expected the call to fail');
}

/** Accepts TCP connections and resets them: a store that goes away under us. */
async function startDroppingServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function walk(root: string, dir = root): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(root, full) : [path.relative(root, full)];
  });
}

// ---- harnesses -------------------------------------------------------------------------------------

async function localHarness(): Promise<Harness> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-local-store-'));
  const ctime = (rel: string) => fs.statSync(path.join(root, rel), { bigint: true }).ctimeNs;
  return {
    writesTemp: true,
    transport: () => createLocalTransport({ root }),
    files: async () => walk(root),
    read: async (rel) => fs.readFileSync(path.join(root, rel)),
    // A rename sets the ctime: the order the names became final, as the filesystem recorded it.
    finalOrder: (folder) =>
      walk(root)
        .filter((f) => f.startsWith(`${folder}/`) && !f.endsWith('.omni-part'))
        .sort((a, b) => (ctime(a) < ctime(b) ? -1 : ctime(a) > ctime(b) ? 1 : 0)),
    // The folder keeps no history; the file's inode is replaced on every rename, which the
    // idempotence case checks through the report instead.
    landings: () => Number.NaN,
    writeAck: async (name, body) => {
      fs.mkdirSync(path.join(root, 'acknowledgements'), { recursive: true });
      fs.writeFileSync(path.join(root, 'acknowledgements', name), body);
    },
    stop: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

function sftpHarness(sshd: RunningSshd): Harness {
  const options = { host: '127.0.0.1', port: sshd.port, username: sshd.username, hostKey: sshd.hostKey };
  const renames = () =>
    sshd
      .log()
      .map((l) => /^(?:posix-)?rename old "([^"]+)" new "([^"]+)"/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
  return {
    writesTemp: true,
    transport: () => createSftpTransport({ ...options, privateKey: sshd.privateKey }),
    withBadCredentials: () => createSftpTransport({ ...options, privateKey: sshd.strangerKey }),
    files: async () => walk(sshd.root),
    read: async (rel) => fs.readFileSync(path.join(sshd.root, rel)),
    finalOrder: (folder) =>
      renames()
        .map((m) => m[2]!)
        .filter((f) => f.startsWith(`${folder}/`)),
    landings: (rel) => renames().filter((m) => m[2] === rel).length,
    writeAck: async (name, body) => {
      fs.mkdirSync(path.join(sshd.root, 'acknowledgements'), { recursive: true });
      fs.writeFileSync(path.join(sshd.root, 'acknowledgements', name), body);
    },
    endpointAt: (port) =>
      createSftpTransport({ ...options, port, privateKey: sshd.privateKey, timeoutMs: 3000 }),
    stop: () => sshd.stop(),
  };
}

function s3Harness(s3: RunningS3rver): Harness {
  const options = {
    endPoint: '127.0.0.1',
    port: s3.port,
    accessKey: s3.accessKey,
    bucket: s3.bucket,
    prefix: 'omni',
  };
  const admin = new Client({
    endPoint: '127.0.0.1',
    port: s3.port,
    useSSL: false,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
  });
  const created = () =>
    s3.events
      .filter((e) => e.startsWith('ObjectCreated:'))
      .map((e) => e.slice(e.indexOf(' ') + 1).replace(/^omni\//, ''));
  return {
    writesTemp: false,
    transport: () => createS3Transport({ ...options, secretKey: s3.secretKey }),
    withBadCredentials: () => createS3Transport({ ...options, secretKey: 'not-the-secret' }),
    files: async () => {
      const names: string[] = [];
      for await (const o of admin.listObjectsV2(s3.bucket, 'omni/', true) as AsyncIterable<{
        name?: string;
      }>) {
        if (o.name) names.push(o.name.replace(/^omni\//, ''));
      }
      return names;
    },
    read: async (rel) => {
      const chunks: Buffer[] = [];
      for await (const c of await admin.getObject(s3.bucket, `omni/${rel}`)) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    },
    finalOrder: (folder) => created().filter((k) => k.startsWith(`${folder}/`)),
    landings: (rel) => created().filter((k) => k === rel).length,
    writeAck: async (name, body) => {
      await admin.putObject(s3.bucket, `omni/acknowledgements/${name}`, Buffer.from(body));
    },
    endpointAt: (port) => createS3Transport({ ...options, port, secretKey: s3.secretKey }),
    stop: () => s3.stop(),
  };
}

// ---- the contract ----------------------------------------------------------------------------------

type Start = () => Promise<Harness | string>;

const connectors: [string, Start][] = [
  ['local', localHarness],
  [
    'sftp',
    async () => {
      const sshd = await startSshd();
      return typeof sshd === 'string' ? sshd : sftpHarness(sshd);
    },
  ],
  ['s3', async () => s3Harness(await startS3rver())],
];

describe.each(connectors)('%s transport', (name, start) => {
  let harness: Harness | undefined;
  let skipped: string | undefined;
  let transport: Transport;

  beforeAll(async () => {
    const started = await start();
    if (typeof started === 'string') {
      skipped = started;
      console.log(`SKIPPED ${name} transport contract: ${started}`);
      return;
    }
    harness = started;
    transport = harness.transport();
  });

  afterAll(async () => {
    await transport?.close();
    await harness?.stop();
  });

  // A skipped connector passes its cases vacuously; the SKIPPED line above says why.
  const live = (title: string, fn: (h: Harness) => Promise<void>) =>
    it(title, async () => {
      if (skipped || !harness) return;
      await fn(harness);
    });

  live('delivers every file with its bytes, and BatchComplete last as the server saw it', async (h) => {
    const { batch, contents } = makeBatch(nextBatchId());
    const report = await transport.deliver(batch);
    const manifest = `${batch.folder}/BatchComplete_${batch.batchId}.xml`;
    expect(report.sent).toEqual([...batch.files.map((f) => f.path), manifest]);
    expect(report.skipped).toEqual([]);
    for (const [rel, data] of contents) expect(sha(await h.read(rel))).toBe(sha(data));
    const order = h.finalOrder(batch.folder!);
    expect(order.at(-1)).toBe(manifest);
    expect(new Set(order)).toEqual(new Set(contents.keys()));
    const ours = (await h.files()).filter((f) => f.startsWith(`${batch.folder}/`));
    expect(ours.filter((f) => f.endsWith('.omni-part'))).toEqual([]);
  });

  live('a crash midway leaves no half file under a final name and no BatchComplete', async (h) => {
    const { batch } = makeBatch(nextBatchId(), 'A1.flac');
    const err = await errorOf(transport.deliver(batch));
    expect(err.failure).toBe('source');
    expect(err.retryable).toBe(true);
    const files = (await h.files()).filter((f) => f.startsWith(`${batch.folder}/`));
    const [xml, flac, jpg] = batch.files.map((f) => f.path);
    expect(files).toContain(xml);
    expect(files).not.toContain(flac);
    expect(files).not.toContain(jpg);
    expect(files.some((f) => f.includes('BatchComplete'))).toBe(false);
    // The half-sent file is on the server under its temporary name only (S3 keeps no partial object).
    if (h.writesTemp) expect(files).toContain(`${flac}.omni-part`);
    for (const f of files) {
      expect(f === xml || f === `${flac}.omni-part`).toBe(true);
    }
  });

  live('a re-run after a crash sends only what is missing, and a third run sends nothing', async (h) => {
    const batchId = nextBatchId();
    const crashed = makeBatch(batchId, 'A1.flac');
    await errorOf(transport.deliver(crashed.batch));

    const rerun = makeBatch(batchId);
    const report = await transport.deliver(rerun.batch);
    const [xml, flac, jpg] = rerun.batch.files.map((f) => f.path);
    const manifest = `${rerun.batch.folder}/BatchComplete_${batchId}.xml`;
    expect(report.skipped).toEqual([xml]);
    expect(report.sent).toEqual([flac, jpg, manifest]);
    expect(rerun.opened.get(xml!)).toBeUndefined();
    expect(sha(await h.read(flac!))).toBe(sha(rerun.contents.get(flac!)!));

    const third = makeBatch(batchId);
    const again = await transport.deliver(third.batch);
    expect(again.sent).toEqual([]);
    expect(third.opened.size).toBe(0);
    for (const rel of [xml, flac, jpg, manifest]) {
      const landed = h.landings(rel!);
      if (!Number.isNaN(landed)) expect(landed).toBe(1);
    }
    const leftovers = (await h.files()).filter((f) => f.startsWith(`${rerun.batch.folder}/`));
    expect(leftovers.filter((f) => f.endsWith('.omni-part'))).toEqual([]);
  });

  live('a batch id already completed with other content is a conflict, not a resend', async () => {
    const batchId = nextBatchId();
    await transport.deliver(makeBatch(batchId).batch);
    const other = makeBatch(batchId);
    const body = Buffer.from('<BatchComplete other="yes"/>');
    other.batch.manifest = { size: body.length, sha256: sha(body), source: () => Readable.from([body]) };
    const err = await errorOf(transport.deliver(other.batch));
    expect(err.failure).toBe('conflict');
    expect(err.retryable).toBe(false);
    expect(other.opened.size).toBe(0);
  });

  live('a source that does not match its declared hash never lands', async (h) => {
    const { batch } = makeBatch(nextBatchId());
    batch.files[1]!.sha256 = sha(Buffer.from('something else'));
    const err = await errorOf(transport.deliver(batch));
    expect(err.failure).toBe('bad-batch');
    expect(err.retryable).toBe(false);
    expect(await h.files()).not.toContain(batch.files[1]!.path);
  });

  live('refuses paths outside the batch folder before touching the store', async () => {
    const { batch } = makeBatch(nextBatchId());
    batch.files[0]!.path = `${batch.folder}/../../etc/passwd`;
    const err = await errorOf(transport.deliver(batch));
    expect(err.failure).toBe('bad-batch');
    expect(err.message).toContain('inside');
  });

  live('a wrong key or secret is a refusal that retrying cannot fix', async (h) => {
    if (!h.withBadCredentials) return; // the local folder has no login
    const bad = h.withBadCredentials();
    try {
      const err = await errorOf(bad.deliver(makeBatch(nextBatchId()).batch));
      expect(err.failure).toBe('auth');
      expect(err.retryable).toBe(false);
    } finally {
      await bad.close();
    }
  });

  live('a server that goes away is a retryable failure', async (h) => {
    if (!h.endpointAt) return;
    const dropping = await startDroppingServer();
    const closedPort = await freePort();
    const targets = [h.endpointAt(dropping.port), h.endpointAt(closedPort)];
    try {
      for (const target of targets) {
        const err = await errorOf(target.deliver(makeBatch(nextBatchId()).batch));
        expect(['network', 'timeout']).toContain(err.failure);
        expect(err.retryable).toBe(true);
      }
    } finally {
      for (const t of targets) await t.close();
      await dropping.close();
    }
  });

  live('reads acknowledgements back', async (h) => {
    expect(await transport.listAcknowledgements()).toEqual([]);
    const ack = '<FtpAcknowledgementMessage><Status>FileOK</Status></FtpAcknowledgementMessage>';
    await h.writeAck('ACK_20260101120000001.xml', ack);
    await h.writeAck('ACK_20260101120000002.xml', `${ack} `);
    const listed = await transport.listAcknowledgements();
    expect(listed.map((a) => [a.name, a.size])).toEqual([
      ['ACK_20260101120000001.xml', ack.length],
      ['ACK_20260101120000002.xml', ack.length + 1],
    ]);
    expect((await transport.getAcknowledgement('ACK_20260101120000001.xml')).toString()).toBe(ack);
    const err = await errorOf(transport.getAcknowledgement('../BatchComplete_x.xml'));
    expect(err.retryable).toBe(false);

    // An ack acted on moves to processed/ and leaves the listing; a second archive is no error.
    await transport.archiveAcknowledgement('ACK_20260101120000001.xml');
    await transport.archiveAcknowledgement('ACK_20260101120000001.xml');
    expect((await transport.listAcknowledgements()).map((a) => a.name)).toEqual([
      'ACK_20260101120000002.xml',
    ]);
    expect(await h.files()).toContain('acknowledgements/processed/ACK_20260101120000001.xml');
    expect((await errorOf(transport.archiveAcknowledgement('../x.xml'))).retryable).toBe(false);
  });
});
