// kill -9 of the platform (with its embedded store simulator) during packaging and during transport, then
// a restart on the same data folder: every store still gets exactly one complete batch (BatchComplete in
// every batch folder, no second batch for the same attempt) and acknowledges it exactly once. Packaging persists the batch id before anything
// reaches a store and a resumed job resends the same bytes under that id; expired leases make a dead
// process's jobs due again.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { acknowledgementsOf, batchesOf } from './delivery.fixtures';

const REPO_ROOT = resolve(__dirname, '../..');
const CHILD = join(__dirname, 'crash', 'delivery-crash-child.ts');
const STORES = ['spotify', 'apple_music', 'tidal', 'deezer', 'amazon_music', 'youtube_music'];

interface Child {
  process: ChildProcess;
  lines: string[];
  exited: Promise<NodeJS.Signals | number | null>;
  stderr: () => string;
}

function startChild(args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DELIVERY_LEASE_MS: '1500', ...env },
  });
  const lines: string[] = [];
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((done) =>
    child.on('exit', (code, signal) => done(signal ?? code)),
  );
  return { process: child, lines, exited, stderr: () => stderr };
}

async function waitFor(check: () => boolean, ms: number, what: string, child: Child): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; child stderr: ${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'omni-delivery-crash-'));
const storesRoot = join(dataDir, 'delivery', 'stores');
let child: Child | undefined;
afterAll(() => {
  child?.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const staging = join(dataDir, 'delivery', 'staging');
const stagingPart = () => existsSync(staging) && readdirSync(staging).some((f) => f.startsWith('.part-'));
const anyBatch = () => STORES.some((k) => batchesOf(dataDir, k).length > 0);

it('delivers every store exactly once across a kill -9 in packaging and one in transport', async () => {
  // A 60 s stereo master (~10 MB): staging it takes long enough to be caught in the act.
  child = startChild([dataDir, 'create', '60', STORES.join(',')]);
  await waitFor(() => child!.lines.some((l) => l.startsWith('RELEASE')), 60_000, 'the release', child);
  const [, releaseId] = child.lines.find((l) => l.startsWith('RELEASE'))!.split(' ');
  // 1. While the master is being fetched into staging (by the review, which keeps its hash, or by packaging):
  // nothing has reached a store.
  await waitFor(() => stagingPart() || anyBatch(), 30_000, 'packaging', child);
  const killedInPackaging = !anyBatch();
  child.process.kill('SIGKILL');
  expect(await child.exited).toBe('SIGKILL');

  // 2. During transport: the first batch folder appears.
  child = startChild([dataDir, 'resume', '0', '', releaseId!], { DELIVERY_CONCURRENCY: '2' });
  await waitFor(
    () => anyBatch() || child!.lines.some((l) => l.startsWith('DONE')),
    120_000,
    'transport',
    child,
  );
  child.process.kill('SIGKILL');
  await child.exited;

  // 3. A last run finishes what is left (the killed runs' leases expire first).
  child = startChild([dataDir, 'resume', '0', '', releaseId!]);
  await waitFor(
    () => child!.lines.some((l) => l.startsWith('DONE')),
    150_000,
    'every store acknowledged',
    child,
  );
  const jobs = JSON.parse(child.lines.find((l) => l.startsWith('DONE'))!.slice(5)) as Array<{
    target: string;
    batchId: string;
    messageId: string;
  }>;
  expect(await child.exited).toBe(0);

  expect(jobs.map((j) => j.target).sort()).toEqual([...STORES].sort());
  for (const job of jobs) {
    // One batch folder per store, complete, and the one the job names; the store ingested it once.
    const folders = batchesOf(dataDir, job.target);
    expect(folders).toEqual([`N_${job.batchId}`]);
    expect(readdirSync(join(storesRoot, job.target, folders[0]!))).toContain(
      `BatchComplete_${job.batchId}.xml`,
    );
    expect(acknowledgementsOf(dataDir, job.target)).toEqual([
      `processed/ACK_${job.batchId}_${job.messageId}.xml`,
    ]);
  }
  // Say which window the first kill hit (a fast machine may already be sending).
  process.stdout.write(`first kill during ${killedInPackaging ? 'staging' : 'transport'}\n`);
}, 400_000);
