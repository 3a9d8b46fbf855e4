// writeAtomic under concurrency (issue 21 §4.3): writes of one file in the same millisecond never share a
// temp file, and they land in call order, so the file ends with the last call's content.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeAtomic } from '../src/simulator/files';

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
