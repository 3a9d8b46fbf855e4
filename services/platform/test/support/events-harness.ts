// Test support for the event-bus contract suite: the adapters under test ("targets") and small helpers
// to collect messages and wait for conditions without fixed sleeps.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedEventBus } from '../../src/adapters/events-embedded';
import { createKafkaEventBus } from '../../src/adapters/events-kafka';
import type { EventBus, IncomingMessage } from '../../src/ports/events';
import type { CrashMemberConfig } from './events-crash-member';

export interface EventBusTarget {
  readonly name: string;
  /** A bus over the target's storage; on the embedded log, close the previous one first. */
  open(): EventBus;
  /** A topic or group name no other test (or earlier run against the same broker) has used. */
  unique(label: string): string;
  /** How long to wait for deliveries: a real broker needs group joins and rebalances. */
  readonly timeoutMs: number;
  /** Waits until a freshly joined consumer group has its partitions (instant in-process). */
  settle(): Promise<void>;
  /**
   * A member of `groupId` in another process whose handler never returns; on the embedded log the
   * test's own bus must be closed first (one process owns the log at a time).
   */
  crashingMember(groupId: string, topic: string): Promise<CrashingMember>;
  cleanup(): Promise<void>;
}

export interface CrashingMember {
  /** The value of the first message its handler received. */
  readonly handling: Promise<string>;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
}

/** The crash member's session: the broker's minimum, so the group gives its partitions away soon. */
const CRASH_SESSION_TIMEOUT_MS = 6000;

function spawnCrashingMember(config: CrashMemberConfig): Promise<CrashingMember> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'events-crash-member.ts'), JSON.stringify(config)],
    { env: { ...process.env, LOG_LEVEL: 'error' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let errors = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handling = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^HANDLING (.*)$/m.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    void exited.then(() => reject(new Error(`the crashing member exited early: ${errors || output}`)));
  });
  handling.catch(() => undefined);
  const member: CrashingMember = {
    handling,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      if (output.includes('SUBSCRIBED\n')) resolve(member);
    });
    void exited.then(() => reject(new Error(`the crashing member did not start: ${errors || output}`)));
  });
}

const runId = crypto.randomBytes(4).toString('hex');
let counter = 0;
const uniqueName = (label: string) => `contract.${runId}.${label}.${++counter}`;

export function embeddedTarget(): EventBusTarget {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-events-contract-'));
  return {
    name: 'embedded',
    open: () => createEmbeddedEventBus({ dataDir }),
    unique: uniqueName,
    timeoutMs: 5000,
    settle: async () => undefined,
    crashingMember: (groupId, topic) => spawnCrashingMember({ kind: 'embedded', dataDir, groupId, topic }),
    cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

export function kafkaTarget(brokers: string): EventBusTarget {
  return {
    name: 'kafka',
    open: () =>
      createKafkaEventBus({
        brokers: brokers.split(',').map((b) => b.trim()),
        clientId: `omni-contract-${runId}`,
      }),
    unique: uniqueName,
    timeoutMs: 30000,
    // subscribe() resolves once its member has partitions; this covers the group leader's own sync,
    // which may finish a moment after the last member's join.
    settle: () => sleep(250),
    crashingMember: (groupId, topic) =>
      spawnCrashingMember({
        kind: 'kafka',
        brokers: brokers.split(',').map((b) => b.trim()),
        sessionTimeoutMs: CRASH_SESSION_TIMEOUT_MS,
        groupId,
        topic,
      }),
    cleanup: async () => undefined,
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls a condition (test-side only); fails with `what` if it does not hold in time. */
export async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

export interface Collector {
  readonly received: IncomingMessage[];
  handler(message: IncomingMessage): Promise<void>;
  waitFor(count: number, timeoutMs: number): Promise<void>;
}

export function collector(label = 'messages'): Collector {
  const received: IncomingMessage[] = [];
  return {
    received,
    handler: async (message) => {
      received.push(message);
    },
    waitFor: (count, timeoutMs) =>
      waitUntil(() => received.length >= count, timeoutMs, `${count} ${label} (got ${received.length})`),
  };
}

/** Offsets as numbers, for ordering checks (Kafka reports them as decimal strings). */
export const offsetOf = (message: IncomingMessage) => Number(message.offset);
