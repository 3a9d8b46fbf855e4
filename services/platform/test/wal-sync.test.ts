// The WAL flush behind every acknowledged write: flushes asked for while one is in flight share the next
// one (a caller's commit may have come after the running flush began), and a failed flush stops writes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WalSync } from '../src/adapters/documents-sqlite/wal-sync';

describe('WalSync', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-wal-sync-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates a missing WAL file owner-only and shares one following flush among the callers who came during one', async () => {
    const sync = new WalSync(path.join(dir, 'db-wal'));
    expect(fs.statSync(path.join(dir, 'db-wal')).mode & 0o777).toBe(0o600);
    const first = sync.flush();
    const during = Array.from({ length: 5 }, () => sync.flush());
    expect(new Set(during).size).toBe(1);
    expect(during[0]).not.toBe(first);
    await Promise.all([first, ...during]);
    // Nothing in flight any more: a new caller starts a flush of its own.
    const later = sync.flush();
    expect(later).not.toBe(during[0]);
    await later;
    await sync.close();
  });

  it('refuses every flush once one failed, saying why in words', async () => {
    const sync = new WalSync(path.join(dir, 'db-wal'));
    // A closed descriptor makes fdatasync fail as a dying disk would.
    fs.closeSync((sync as unknown as { fd: number }).fd);
    await expect(sync.flush()).rejects.toThrow('could not flush its log to disk');
    await expect(sync.flush()).rejects.toThrow('could not flush its log to disk');
    (sync as unknown as { fd: undefined }).fd = undefined;
  });
});
