// The disk flush behind a write's acknowledgement, off the event loop. SQLite runs with
// synchronous=NORMAL, so a COMMIT writes its frames to the WAL file without waiting for the disk; this
// flushes that file (fdatasync on libuv's thread pool) before the writers are told their writes are done.
// Commits made while a flush is in flight share the next one (group commit), and the event loop never
// waits for the disk: synchronous=FULL would fsync inside every COMMIT, on the JavaScript thread.
//
// fdatasync on our own descriptor flushes the file's pages whoever wrote them. The WAL file keeps its
// inode while the store is open (SQLite rewrites it from the start after a checkpoint, and deletes it only
// when the last connection closes); frames a checkpoint has copied into the database were synced there by
// SQLite itself before the WAL could be reused.
import { closeSync, constants, fdatasync, openSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../../data-dir/modes';

export class WalSync {
  private fd: number | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  /** Once a flush fails, which commits reached the disk is unknown: the store refuses writes from then on. */
  failure: Error | undefined;

  constructor(walFile: string) {
    // SQLite gives the WAL file the database's mode; should we create it first, it is owner-only too.
    this.fd = openSync(walFile, constants.O_RDONLY | constants.O_CREAT, PRIVATE_FILE_MODE);
  }

  /** Resolves once everything committed before the call is on disk. */
  flush(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.running) {
      this.running = this.sync();
      return this.running;
    }
    // The flush in flight may have started before this caller's commit: the next one covers it.
    if (!this.next) {
      const after = () => {
        this.next = undefined;
        this.running = this.sync();
        return this.running;
      };
      this.next = this.running.then(after, after);
    }
    return this.next;
  }

  async close(): Promise<void> {
    while (this.next || this.running) await (this.next ?? this.running)!.catch(() => undefined);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private sync(): Promise<void> {
    const fd = this.fd;
    const flushed = new Promise<void>((resolve, reject) => {
      if (fd === undefined) return reject(new Error('the document store is closed'));
      fdatasync(fd, (err) => {
        if (!err) return resolve();
        this.failure = new Error(`the document store could not flush its log to disk: ${err.message}`);
        reject(this.failure);
      });
    });
    const tracked: Promise<void> = flushed.finally(() => {
      if (this.running === tracked) this.running = undefined;
    });
    return tracked;
  }
}
