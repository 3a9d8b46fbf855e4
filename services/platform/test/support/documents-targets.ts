// Targets for the documents contract suite: how to open (and reopen) a store of each adapter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { createEmbeddedDocumentStore } from '../../src/adapters/documents-embedded';
import { createMongoDocumentStore } from '../../src/adapters/documents-mongo';
import type { DocumentStore } from '../../src/ports/documents';

export interface DocumentStoreTarget {
  open(): DocumentStore;
  /** Removes everything the target created. */
  cleanup(): Promise<void>;
}

export function embeddedTarget(): DocumentStoreTarget {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-docs-'));
  return {
    open: () => createEmbeddedDocumentStore({ dataDir }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export function mongoTarget(uri: string): DocumentStoreTarget {
  const dbName = `omni_contract_${process.pid}_${Date.now()}`;
  return {
    open: () =>
      createMongoDocumentStore({ uri, dbName, serverSelectionTimeoutMS: 5000 } as Parameters<
        typeof createMongoDocumentStore
      >[0]),
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
