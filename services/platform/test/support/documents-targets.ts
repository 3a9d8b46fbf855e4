// Targets for the documents contract suite: how to open (and reopen) a store of each adapter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { createMongoDocumentStore } from '../../src/adapters/documents-mongo';
import { createSqliteDocumentStore } from '../../src/adapters/documents-sqlite';
import type { DocumentStore } from '../../src/ports/documents';

export interface DocumentStoreTarget {
  open(): DocumentStore;
  /** Removes everything the target created. */
  cleanup(): Promise<void>;
  /**
   * What the engine behind the target cannot do, each with the sentence saying why: the cases that need it
   * say "not verifiable on this engine" instead of passing quietly.
   */
  gaps?(): Promise<EngineGaps>;
  /** How a process of its own opens the same store (the crash case kills one mid-transaction). */
  child(): ChildStoreSpec;
}

/** Journaled transactions of a crashed child are rolled back once this lease has run out. */
export const CHILD_LEASE_MS = 400;

export type ChildStoreSpec =
  | { kind: 'embedded'; dataDir: string }
  | { kind: 'mongodb'; uri: string; dbName: string; leaseMs: number };

export interface EngineGaps {
  /** Transactions are journaled: others see their writes before commit. */
  isolation?: string;
  /** A non-sparse unique index leaves out documents lacking the field (MongoDB indexes them as null). */
  missingAsNull?: string;
}

/** What a MongoDB-wire server lacks, from its own hello and buildInfo. */
export async function mongoGaps(uri: string): Promise<EngineGaps> {
  const conn = await mongoose.createConnection(uri, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const admin = conn.db!.admin();
    const hello = (await admin.command({ hello: 1 })) as { setName?: unknown; msg?: unknown };
    const build = (await admin.command({ buildInfo: 1 })) as { version?: string; ferretdbVersion?: string };
    const engine = build.ferretdbVersion ? `FerretDB ${build.ferretdbVersion}` : `MongoDB ${build.version}`;
    const gaps: EngineGaps = {};
    if (typeof hello.setName !== 'string' && hello.msg !== 'isdbgrid')
      gaps.isolation = `${engine} has no multi-document transactions; the adapter journals them, which keeps all-or-nothing but not isolation`;
    if (build.ferretdbVersion)
      gaps.missingAsNull = `${engine} leaves documents lacking the field out of a unique index instead of indexing them as null`;
    return gaps;
  } finally {
    await conn.close();
  }
}

/** The embedded default: SQLite. */
export function embeddedTarget(): DocumentStoreTarget {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-docs-'));
  return {
    open: () => createSqliteDocumentStore({ dataDir }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    child: () => ({ kind: 'embedded', dataDir }),
  };
}

let targets = 0;

export function mongoTarget(uri: string): DocumentStoreTarget {
  const dbName = `omni_contract_${process.pid}_${Date.now()}_${++targets}`;
  return {
    open: () =>
      createMongoDocumentStore({ uri, dbName, serverSelectionTimeoutMS: 5000, transactions: 'journal' }),
    gaps: () => mongoGaps(uri),
    child: () => ({ kind: 'mongodb', uri, dbName, leaseMs: CHILD_LEASE_MS }),
    cleanup: async () => {
      const conn = await mongoose.createConnection(uri, { dbName }).asPromise();
      try {
        await conn.dropDatabase();
      } finally {
        await conn.close();
      }
    },
  };
}

/** A promise with its resolver, to hold a transaction open while the test looks from outside. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
