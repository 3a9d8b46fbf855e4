// What the import's thread and its statement-reader worker say to each other. The worker reads one file
// from the spool and hands over chunks (domain/import-chunk.ts); it builds the next while the import
// writes this one, and hands it over when this one's columns come back written (`spare`), so at most a
// chunk is waiting in memory whatever the file's size.
import type { ImportChunk } from '../../domain/import-chunk';
import type { Columns } from '../../domain/import-columns';
import type { StatementHeader } from '../../domain/statements/line';
import type { StatementSourceName } from '../../domain/statements/read-statement';

export interface ReadRequest {
  t: 'read';
  source: StatementSourceName;
  path: string;
  /** Items up to this line number were written before (an import resuming): read, not handed over. */
  resumeAfter: number;
  chunkItems: number;
  /** A chunk is handed over at this many recordings too (a wide catalogue's chunk is mostly groups). */
  chunkRecordings: number;
}

export type ToWorker =
  | ReadRequest
  /** A written chunk's columns, handed back (transferred) for the worker to fill again. */
  | { t: 'spare'; columns: Columns };

export type FromWorker =
  | { t: 'header'; header: StatementHeader }
  | { t: 'chunk'; chunk: ImportChunk; bytesRead: number }
  | { t: 'end'; bytesRead: number }
  /** The file cannot be imported: the words for the person who sent it (StatementRefused). */
  | { t: 'refused'; message: string }
  /** The reader failed for a reason that is not the file's (a disk error): the import is tried again. */
  | { t: 'failed'; message: string };

/** The worker's bundle name (scripts/build-server.mjs) and its source under the application's root. */
export const READER_WORKER = {
  name: 'royalties-statement-reader',
  source: 'services/royalties/src/use-cases/statement-reader/worker.ts',
} as const;
