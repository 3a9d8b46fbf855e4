// writeAtomic under concurrency (issue 21 §4.3): writes of one file in the same millisecond never share a
// temp file, and they land in call order, so the file ends with the last call's content.
import { createHash } from 'node:crypto';
import { linkSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashFile, writeAtomic } from '../src/simulator/files';

it('lands 50 concurrent writes of one file in call order, leaving no temp file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'omni-write-atomic-'));
  const target = path.join(dir, 'state', 'behaviour.json');
  const temp = path.join(dir, 'tmp');
  // Later calls carry less to write, so without the queue they would finish (and rename) first.
  const writes = Array.from({ length: 50 }, (_, i) =>
    writeAtomic(target, JSON.stringify({ call: i, pad: 'x'.repeat((50 - i) * 20_000) }), temp),
  );
  await Promise.all(writes);
  expect((JSON.parse(readFileSync(target, 'utf8')) as { call: number }).call).toBe(49);
  expect(readdirSync(temp)).toEqual([]);
});

describe('hashFile', () => {
  const sha = (bytes: string) => createHash('sha256').update(bytes).digest('hex');

  it('gives a hard link of a file read before the same digest, and a rewritten file its new one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'omni-sim-hash-'));
    const master = path.join(dir, 'master.wav');
    writeFileSync(master, 'first bytes');
    expect(await hashFile(master, 'sha256')).toBe(sha('first bytes'));
    linkSync(master, path.join(dir, 'store-2.wav'));
    expect(await hashFile(path.join(dir, 'store-2.wav'), 'sha256')).toBe(sha('first bytes'));
    // Same size, other bytes: the write moves the mtime, so the file is read again.
    writeFileSync(master, 'other bytes');
    expect(await hashFile(master, 'sha256')).toBe(sha('other bytes'));
    expect(await hashFile(path.join(dir, 'store-2.wav'), 'sha256')).toBe(sha('other bytes'));
    expect(await hashFile(master, 'md5')).toBe(createHash('md5').update('other bytes').digest('hex'));
  });
});
