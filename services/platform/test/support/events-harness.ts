// Test support for the event-bus contract suite: the adapters under test ("targets") and small helpers
// to collect messages and wait for conditions without fixed sleeps.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedEventBus } from '../../src/adapters/events-embedded';
import { createKafkaEventBus } from '../../src/adapters/events-kafka';
import type { EventBus, IncomingMessage } from '../../src/ports/events';

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
  cleanup(): Promise<void>;
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
    // A kafkajs consumer's subscribe() returns before the group has finished joining and syncing.
    settle: () => sleep(6000),
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
