// A FLAC decode folder outlives its check only when the process was killed mid-check: the next start
// removes it, but never a folder young enough to belong to a check running in another process.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepStaleDecodes } from '../src/providers/fingerprinter/flac';

describe('sweepStaleDecodes', () => {
  let parent: string;
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'omni-sweep-test-'));
  });
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it('removes old decode folders and keeps young ones and anything not ours', async () => {
    const old = join(parent, 'omni-flac-old1');
    const young = join(parent, 'omni-flac-young');
    const other = join(parent, 'someone-else');
    for (const dir of [old, young, other]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'master.wav'), 'x');
    }
    const dayAgo = new Date(Date.now() - 24 * 3600_000);
    utimesSync(old, dayAgo, dayAgo);
    utimesSync(other, dayAgo, dayAgo);

    expect(await sweepStaleDecodes(parent)).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it('answers 0 for a missing folder', async () => {
    expect(await sweepStaleDecodes(join(parent, 'nope'))).toBe(0);
  });
});
