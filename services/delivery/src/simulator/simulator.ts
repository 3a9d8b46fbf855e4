// The embedded store simulator: every store is a folder (`<root>/<key>/`, the local transport's target)
// and the simulator plays the store's side of the DDEX batch choreography. It polls the store folders
// (a store is read only when its folder watch saw a change, or now and then; batches already ingested
// cost nothing more; see watch()), and when a batch's
// BatchComplete_<batchId>.xml appears it waits the store's delay, verifies every message (verify.ts) and
// writes `acknowledgements/ACK_<batchId>_<messageId>.xml`. Each batch is ingested exactly once, across
// restarts: the ingested batches are recorded in `<root>/<key>/.simulator/ingested.jsonl`, one line
// appended per batch (rewriting one JSON of every batch per batch made each ingest cost more than the last).
import { type FSWatcher, watch as fsWatch } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@omni/platform';
import { buildAcknowledgement, parseAcknowledgement } from '../domain/ack/ack-xml';
import { type AckFileStatus, ackFileName, type StoreAcknowledgement } from '../domain/ack/model';
import { parseBatchComplete } from '../domain/ddex/batch-complete';
import type { BatchCompleteInput } from '../domain/ddex/batch-complete-model';
import type { ErnValidator } from '../domain/ddex/validate';
import { PROCESSED_ACK_FOLDER } from '../providers/transport/layout';
import { ACCEPT, afterBatch, DEFAULT_REASONS, type SimulatorBehaviour } from './behaviour';
import { appendLine, exists, mkdirPrivate, readIngested, readJson, writeAtomic } from './files';
import { createLimit } from './limit';
import { type StoreReportsResult, type WriteStoreReportsOptions, writeStoreReports } from './reports';
import { verifyMessage } from './verify';

/** `N_<batchId>` (DDEX: New / Purge / Metadata-only prefixes) or the bare batch id. */
const BATCH_FOLDER = /^(?:[PMN]_)?(\d{17})$/;
const STATE_DIR = '.simulator';
const ACK_FOLDER = 'acknowledgements';
const INGESTED_LOG = 'ingested.jsonl';

export type BatchOutcome = AckFileStatus | 'ProcessingError' | 'Rejected' | 'pending' | 'incomplete';

export interface SimulatorBatch {
  batchId: string;
  folder: string;
  messageIds: string[];
  /** ICPNs of the batch's releases. */
  releaseIds: string[];
  /** BatchComplete is there. */
  complete: boolean;
  /** The verdict once ingested (the first message's that was not FileOK); pending/incomplete before. */
  outcome: BatchOutcome;
  ingestedAt?: string;
}

export interface SimulatorStats {
  batches: SimulatorBatch[];
}

interface IngestedBatch {
  batchId: string;
  messageIds: string[];
  releaseIds: string[];
  outcome: BatchOutcome;
  ingestedAt: string;
  fileHashes: string[];
}

interface StoreState {
  ingested: Record<string, IngestedBatch>;
  knownHashes: Set<string>;
  behaviour: SimulatorBehaviour;
  /** Batch folders waiting for their delay or being verified. */
  inFlight: Set<string>;
  /** Batch folders seen without their BatchComplete yet: looked at on every poll. */
  incomplete: Set<string>;
  /** Something changed in the store's folder since its last scan (or no watch could be set). */
  dirty: boolean;
  watcher?: FSWatcher;
  /** The store's last ingestion: the next one waits for it. */
  queue: Promise<void>;
}

export interface StoreSimulatorOptions {
  /** The folder holding one folder per store. */
  root: string;
  keys: readonly string[];
  /** One validator for the whole simulator (it runs in a worker). */
  validator: ErnValidator;
  /** How long a store takes before it acknowledges a complete batch. */
  delayMs: number;
  /** Default 1000 ms (DELIVERY_POLL_MS's default); poll() looks at once. */
  pollMs?: number;
  /** Every this many timer polls, every store folder is read even if its watch saw nothing; default 30. */
  fullScanEvery?: number;
  /** Batches verified at once across all stores; default 3. */
  concurrency?: number;
  logger?: Logger;
}

export interface StoreSimulator {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Looks at every store now (also what the poll timer does). */
  poll(): Promise<void>;
  /** Resolves when every batch seen so far has been acknowledged. */
  drain(): Promise<void>;
  configure(
    key: string,
    behaviour: Partial<SimulatorBehaviour> & Pick<SimulatorBehaviour, 'mode'>,
  ): Promise<SimulatorBehaviour>;
  behaviour(key: string): SimulatorBehaviour;
  stats(key: string): Promise<SimulatorStats>;
  /** Every store's DSR statement and daily trend files for a sale period, into `outDir` (reports/). */
  writeReports(
    options: Omit<WriteStoreReportsOptions, 'simulatorRoot' | 'keys'>,
  ): Promise<StoreReportsResult>;
}

export function createStoreSimulator(options: StoreSimulatorOptions): StoreSimulator {
  const pollMs = options.pollMs ?? 1000;
  const fullScanEvery = options.fullScanEvery ?? 30;
  const limit = createLimit(options.concurrency ?? 3);
  const stores = new Map<string, StoreState>();
  const work = new Set<Promise<void>>();
  const delays = new Map<NodeJS.Timeout, () => void>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let polling: Promise<void> | undefined;
  let ticks = 0;

  const storeDir = (key: string) => path.join(options.root, key);
  const stateDir = (key: string) => path.join(storeDir(key), STATE_DIR);
  const stateFile = (key: string, name: string) => path.join(stateDir(key), name);

  const state = (key: string): StoreState => {
    const s = stores.get(key);
    if (!s) throw new Error(`"${key}" is not a simulated store`);
    return s;
  };

  async function load(key: string): Promise<void> {
    const ingested = await readIngested<IngestedBatch>(
      stateFile(key, 'ingested.json'),
      stateFile(key, INGESTED_LOG),
    );
    const behaviour = await readJson<SimulatorBehaviour>(stateFile(key, 'behaviour.json'), ACCEPT);
    const knownHashes = new Set(Object.values(ingested).flatMap((b) => b.fileHashes));
    stores.set(key, {
      ingested,
      knownHashes,
      behaviour,
      inFlight: new Set(),
      incomplete: new Set(),
      dirty: true,
      queue: Promise.resolve(),
    });
  }

  async function scan(key: string): Promise<void> {
    const s = state(key);
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(storeDir(key), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    s.incomplete.clear();
    // Stores ingest batches in batch-id order, so a later update never overtakes an earlier delivery.
    const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
    for (const folder of folders.sort(byBatchId)) await consider(key, folder);
  }

  /** A batch folder: scheduled once its BatchComplete is there, remembered as incomplete until then. */
  async function consider(key: string, folder: string): Promise<void> {
    const s = state(key);
    const match = BATCH_FOLDER.exec(folder);
    if (!match || s.ingested[folder] || s.inFlight.has(folder)) return;
    const batchId = match[1] as string;
    if (!(await exists(path.join(storeDir(key), folder, `BatchComplete_${batchId}.xml`)))) {
      s.incomplete.add(folder);
      return;
    }
    s.incomplete.delete(folder);
    s.inFlight.add(folder);
    schedule(key, folder, batchId, s.behaviour.delayMs ?? options.delayMs);
  }

  /**
   * Watches the store's folder (one inotify watch, nothing to do while idle): a new batch folder marks the
   * store dirty. BatchComplete lands one level deeper, so incomplete batches are looked at on every poll,
   * and every `fullScanEvery` polls each store is read anyway, in case the watch missed something.
   */
  async function watch(key: string): Promise<void> {
    const s = state(key);
    await mkdirPrivate(storeDir(key));
    try {
      s.watcher = fsWatch(storeDir(key), () => {
        s.dirty = true;
      });
      s.watcher.on('error', () => {
        s.watcher?.close();
        s.watcher = undefined;
      });
      s.watcher.unref();
    } catch {
      s.watcher = undefined;
    }
  }

  function schedule(key: string, folder: string, batchId: string, delayMs: number) {
    const job = new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        delays.delete(t);
        // One batch at a time per store, in the order they were found (timers of one delay fire in order).
        const s = state(key);
        const run = s.queue.then(() => limit(() => ingest(key, folder, batchId)));
        s.queue = run.catch(() => undefined);
        run
          .catch((err) =>
            options.logger?.error({ err, store: key, batchId }, 'store simulator: ingest failed'),
          )
          .finally(() => {
            state(key).inFlight.delete(folder);
            resolve();
          });
      }, delayMs);
      // stop() cancels a batch still waiting for its delay; the next start finds it again.
      delays.set(t, resolve);
    });
    work.add(job);
    void job.finally(() => work.delete(job));
  }

  async function ingest(key: string, folder: string, batchId: string): Promise<void> {
    if (!running) return;
    const s = state(key);
    const batchDir = path.join(storeDir(key), folder);
    const manifestFile = path.join(batchDir, `BatchComplete_${batchId}.xml`);
    let manifest: BatchCompleteInput;
    try {
      manifest = parseBatchComplete(await fs.readFile(manifestFile, 'utf8'));
      if (manifest.batchId !== batchId)
        throw new Error(`BatchId ${manifest.batchId} is not the file name's ${batchId}`);
    } catch (err) {
      // No message to acknowledge without a readable manifest: recorded so it is not retried each poll.
      options.logger?.warn(
        { store: key, batchId, reason: (err as Error).message },
        'store simulator: bad manifest',
      );
      await record(key, folder, {
        batchId,
        messageIds: [],
        releaseIds: [],
        outcome: 'ResourceCorrupt',
        ingestedAt: new Date().toISOString(),
        fileHashes: [],
      });
      return;
    }
    const ackDir = path.join(storeDir(key), ACK_FOLDER);
    const messageIds = manifest.messages.map((m) => m.messageId);
    const releaseIds = manifest.messages.flatMap((m) => m.releaseIds);
    // A restart between writing the acks and recording the batch: the store already answered, and its
    // answer stands (read back, so the recorded outcome is the one the acks give).
    const answered = await Promise.all(
      messageIds.map((id) =>
        fs
          .readFile(path.join(ackDir, ackFileName(batchId, id)), 'utf8')
          // Delivery moves an ack it has acted on to processed/.
          .catch(() => fs.readFile(path.join(ackDir, PROCESSED_ACK_FOLDER, ackFileName(batchId, id)), 'utf8'))
          .then(parseAcknowledgement)
          .catch(() => undefined),
      ),
    );
    if (answered.every((ack) => ack !== undefined)) {
      await record(key, folder, {
        batchId,
        messageIds,
        releaseIds,
        outcome: outcomeOf(answered as StoreAcknowledgement[]),
        ingestedAt: new Date().toISOString(),
        fileHashes: [],
      });
      return;
    }

    const verdicts = [];
    for (const message of manifest.messages) {
      verdicts.push(await verifyMessage(batchDir, message, options.validator, s.knownHashes));
    }
    const allGood = verdicts.every((v) => v.fileStatus === 'FileOK');
    const behaviour = s.behaviour;
    const configured = allGood && behaviour.mode !== 'accept' ? behaviour : undefined;
    const acknowledgedAt = new Date().toISOString();
    const parties = { sender: manifest.recipient, recipient: manifest.sender };
    let outcome: BatchOutcome = 'FileOK';
    for (const [i, message] of manifest.messages.entries()) {
      const verdict = verdicts[i] as (typeof verdicts)[number];
      const ack: StoreAcknowledgement = {
        batchId,
        messageId: message.messageId,
        fileName: message.path,
        fileStatus: verdict.fileStatus,
        releaseStatus:
          verdict.fileStatus === 'FileOK' && !configured
            ? 'SuccessfullyIngestedByReleaseDistributor'
            : 'ProcessingErrorAtReleaseDistributor',
        manualCheckRequired: configured ? configured.mode === 'reject' : verdict.manualCheckRequired,
        releaseIds: message.releaseIds,
        acknowledgedAt,
      };
      const errorText = configured
        ? configured.reason || DEFAULT_REASONS[configured.mode as 'reject' | 'fail']
        : verdict.errorText;
      if (errorText) ack.errorText = errorText;
      await writeAtomic(
        path.join(ackDir, ackFileName(batchId, message.messageId)),
        buildAcknowledgement(ack, parties),
        stateDir(key),
      );
      if (outcome === 'FileOK' && verdict.fileStatus !== 'FileOK') outcome = verdict.fileStatus;
    }
    if (configured) {
      outcome = configured.mode === 'reject' ? 'Rejected' : 'ProcessingError';
      await saveBehaviour(key, afterBatch(behaviour));
    }
    for (const v of verdicts) for (const h of v.fileHashes) s.knownHashes.add(h);
    await record(key, folder, {
      batchId,
      messageIds,
      releaseIds,
      outcome,
      ingestedAt: acknowledgedAt,
      fileHashes: verdicts.flatMap((v) => v.fileHashes),
    });
    options.logger?.info({ store: key, batchId, outcome }, 'store simulator: batch acknowledged');
  }

  async function record(key: string, folder: string, batch: IngestedBatch) {
    const s = state(key);
    s.ingested[folder] = batch;
    await appendLine(stateFile(key, INGESTED_LOG), JSON.stringify({ folder, ...batch }));
  }

  async function saveBehaviour(key: string, behaviour: SimulatorBehaviour) {
    state(key).behaviour = behaviour;
    await writeAtomic(stateFile(key, 'behaviour.json'), JSON.stringify(behaviour), stateDir(key));
  }

  async function pollAll(full: boolean): Promise<void> {
    for (const key of options.keys) {
      const s = state(key);
      try {
        if (full || s.dirty || !s.watcher) {
          s.dirty = false;
          await scan(key);
        } else {
          for (const folder of [...s.incomplete].sort(byBatchId)) await consider(key, folder);
        }
      } catch (err) {
        options.logger?.warn({ err, store: key }, 'store simulator: cannot read the store folder');
      }
    }
  }

  /** An explicit poll reads every store; the timer's reads only what changed, and everything now and then. */
  function poll(full = true): Promise<void> {
    // One scan at a time: a timer tick and an explicit poll share the one in progress.
    polling ??= pollAll(full).finally(() => {
      polling = undefined;
    });
    return polling;
  }

  function loop() {
    timer = setTimeout(() => {
      ticks++;
      void poll(ticks % fullScanEvery === 0).finally(() => {
        if (running) loop();
      });
    }, pollMs);
    timer.unref();
  }

  return {
    async start() {
      if (running) return;
      await mkdirPrivate(options.root);
      for (const key of options.keys) {
        await load(key);
        await watch(key);
      }
      running = true;
      await poll();
      loop();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      for (const [t, resolve] of delays) {
        clearTimeout(t);
        resolve();
      }
      delays.clear();
      for (const s of stores.values()) {
        s.inFlight.clear();
        s.watcher?.close();
        s.watcher = undefined;
      }
      await polling;
      await Promise.allSettled([...work]);
    },
    poll,
    async drain() {
      while (work.size > 0) await Promise.allSettled([...work]);
    },
    async configure(key, wanted) {
      const current = state(key).behaviour;
      const next: SimulatorBehaviour = {
        mode: wanted.mode,
        times: wanted.times ?? 0,
        reason: wanted.reason ?? '',
        ...((wanted.delayMs ?? current.delayMs) !== undefined
          ? { delayMs: wanted.delayMs ?? current.delayMs }
          : {}),
      };
      await saveBehaviour(key, next);
      return next;
    },
    behaviour: (key) => ({ ...state(key).behaviour }),
    writeReports: (reports) =>
      writeStoreReports({ ...reports, simulatorRoot: options.root, keys: options.keys }),
    async stats(key) {
      const s = state(key);
      const entries = await fs.readdir(storeDir(key), { withFileTypes: true }).catch(() => []);
      const batches: SimulatorBatch[] = [];
      for (const entry of entries) {
        const match = entry.isDirectory() ? BATCH_FOLDER.exec(entry.name) : null;
        if (!match) continue;
        const batchId = match[1] as string;
        const dir = path.join(storeDir(key), entry.name);
        const complete = await exists(path.join(dir, `BatchComplete_${batchId}.xml`));
        const done = s.ingested[entry.name];
        if (done) {
          batches.push({
            batchId,
            folder: entry.name,
            messageIds: done.messageIds,
            releaseIds: done.releaseIds,
            complete,
            outcome: done.outcome,
            ingestedAt: done.ingestedAt,
          });
          continue;
        }
        // Not ingested yet: the release folders say which releases it carries.
        const inside = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
        batches.push({
          batchId,
          folder: entry.name,
          messageIds: [],
          releaseIds: inside.filter((e) => e.isDirectory()).map((e) => e.name),
          complete,
          outcome: complete ? 'pending' : 'incomplete',
        });
      }
      return { batches: batches.sort((a, b) => a.batchId.localeCompare(b.batchId)) };
    },
  };
}

/** A batch's outcome from its acks: the first message's that was not FileOK and ingested. */
function outcomeOf(acks: readonly StoreAcknowledgement[]): BatchOutcome {
  for (const ack of acks) {
    if (ack.fileStatus !== 'FileOK') return ack.fileStatus;
    if (ack.releaseStatus !== 'SuccessfullyIngestedByReleaseDistributor') {
      return ack.manualCheckRequired ? 'Rejected' : 'ProcessingError';
    }
  }
  return 'FileOK';
}

/** Batch folders by their batch id (`N_…`, `P_…` and bare ids alike). */
function byBatchId(a: string, b: string): number {
  const id = (folder: string) => BATCH_FOLDER.exec(folder)?.[1] ?? folder;
  return id(a).localeCompare(id(b));
}
