// A report file appears whole or not at all: it is streamed into `.<name>.<random>.part` beside its target
// (same folder, so the rename is atomic; a reader of the folder skips dot files and `.part`), flushed to
// disk, then renamed over the target. When the target already holds exactly these bytes (the same period
// written again) it is left as it is, so its modification time does not change either.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '@omni/platform';
import { mkdirPrivate } from '../files';

export type AtomicOutcome = 'written' | 'unchanged';

/** `produce` writes everything to `out` and ends it (resolving once it finished). */
export async function writeFileAtomically(
  target: string,
  produce: (out: Writable) => Promise<void>,
): Promise<AtomicOutcome> {
  const dir = path.dirname(target);
  await mkdirPrivate(dir);
  const temp = path.join(dir, `.${path.basename(target)}.${randomUUID()}.part`);
  // flush: the bytes reach the disk (fsync) before the stream closes, so the rename never exposes a
  // file a crash could leave empty.
  const out = createWriteStream(temp, { flags: 'wx', mode: PRIVATE_FILE_MODE, flush: true });
  try {
    await produce(out);
    // `produce` ended the stream; the file is flushed and closed once it emits close.
    if (!out.closed) await once(out, 'close');
    if (await sameBytes(temp, target)) {
      await fs.rm(temp, { force: true });
      return 'unchanged';
    }
    await fs.rename(temp, target);
    return 'written';
  } catch (err) {
    out.destroy();
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/** Writes a small text file atomically; one already holding `text` is not touched (nor written to disk). */
export async function writeTextAtomically(target: string, text: string): Promise<AtomicOutcome> {
  const bytes = Buffer.from(text);
  const existing = await fs.readFile(target).catch(() => undefined);
  if (existing?.equals(bytes)) return 'unchanged';
  return writeFileAtomically(target, async (out) => {
    await new Promise<void>((resolve, reject) => {
      out.once('error', reject);
      out.end(bytes, () => resolve());
    });
  });
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([fs.stat(a), fs.stat(b).catch(() => undefined)]);
  if (!sb?.isFile() || sa.size !== sb.size) return false;
  const ra = createReadStream(a)[Symbol.asyncIterator]();
  const rb = createReadStream(b)[Symbol.asyncIterator]();
  // Compared chunk by chunk, re-aligned: the two streams need not cut their chunks at the same places.
  let bufA: Buffer = Buffer.alloc(0);
  let bufB: Buffer = Buffer.alloc(0);
  try {
    for (;;) {
      if (bufA.length === 0) {
        const next = await ra.next();
        if (!next.done) bufA = next.value as Buffer;
      }
      if (bufB.length === 0) {
        const next = await rb.next();
        if (!next.done) bufB = next.value as Buffer;
      }
      if (bufA.length === 0 || bufB.length === 0) return bufA.length === bufB.length;
      const n = Math.min(bufA.length, bufB.length);
      if (!bufA.subarray(0, n).equals(bufB.subarray(0, n))) return false;
      bufA = bufA.subarray(n);
      bufB = bufB.subarray(n);
    }
  } finally {
    await ra.return?.();
    await rb.return?.();
  }
}
