import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { writeBodyToFile } from '../src/providers/objects/local/stream-to-file';

// The local object store cleans up its temp file as soon as writeBodyToFile rejects. That is only
// safe if, by then, the file is no longer open and will not be created afterwards.
function brokenBody(): Readable {
  return new Readable({
    read() {
      this.destroy(new Error('upstream connection reset'));
    },
  });
}

function openDescriptorsFor(file: string): string[] {
  const dir = '/proc/self/fd';
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((fd) => {
    try {
      return fs.readlinkSync(path.join(dir, fd)) === file;
    } catch {
      return false;
    }
  });
}

describe('writeBodyToFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-stream-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('when the body fails, the file is closed before the promise rejects, so cleanup then sticks', async () => {
    for (let i = 0; i < 10; i++) {
      const file = path.join(dir, `tmp-${i}`);
      await expect(writeBodyToFile(brokenBody(), file)).rejects.toThrow('upstream connection reset');
      expect(openDescriptorsFor(file)).toEqual([]);
      await fs.promises.rm(file, { force: true });
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a body that ends normally is written whole with its md5', async () => {
    const file = path.join(dir, 'ok');
    const written = await writeBodyToFile(Readable.from([Buffer.from('hello '), Buffer.from('world')]), file);
    expect(fs.readFileSync(file, 'utf8')).toBe('hello world');
    expect(written).toMatchObject({ size: 11, md5: '5eb63bbbe01eeed093cb22bb8f5acdc3' });
  });
});
