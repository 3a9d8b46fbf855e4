// Writes a body to a new file while computing its MD5 and length, with backpressure and an optional byte
// limit. Memory stays at one write-stream buffer whatever the body's size.
//
// The source is never destroyed here: for an HTTP request, destroying the body destroys the socket, and
// the router still has to send its 413. The caller owns the body and the temp file's removal.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '@omni/platform';
import { ObjectSizeMismatchError, ObjectTooLargeError } from './errors';

export interface WrittenFile {
  size: number;
  md5: string;
  ino: number;
}

export interface WriteLimits {
  /** Fail with ObjectTooLargeError as soon as the body passes this many bytes. */
  maxSize?: number;
  /** Fail with ObjectSizeMismatchError when the body's length differs. */
  expectedSize?: number;
}

// Large enough that a fast disk is never waiting on the event loop; small enough not to matter.
const WRITE_BUFFER_BYTES = 1 << 20;

export async function writeBodyToFile(
  body: Readable | Buffer,
  file: string,
  limits: WriteLimits = {},
): Promise<WrittenFile> {
  const hash = createHash('md5');
  let size = 0;
  if (Buffer.isBuffer(body)) {
    checkLimits(body.length, limits, true);
    hash.update(body);
    size = body.length;
    // 'wx' because temp names are random: an existing file means something is badly wrong.
    await fs.promises.writeFile(file, body, { flag: 'wx', flush: true, mode: PRIVATE_FILE_MODE });
  } else {
    size = await pump(body, file, hash, limits);
  }
  const stat = await fs.promises.stat(file);
  return { size, md5: hash.digest('hex'), ino: stat.ino };
}

function checkLimits(size: number, limits: WriteLimits, ended: boolean): void {
  if (limits.maxSize !== undefined && size > limits.maxSize) throw new ObjectTooLargeError(limits.maxSize);
  if (ended && limits.expectedSize !== undefined && size !== limits.expectedSize) {
    throw new ObjectSizeMismatchError(limits.expectedSize, size);
  }
}

function pump(
  body: Readable,
  file: string,
  hash: ReturnType<typeof createHash>,
  limits: WriteLimits,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    // flush: fsync before close, so an acknowledged object survives a crash.
    const out = fs.createWriteStream(file, {
      flags: 'wx',
      flush: true,
      mode: PRIVATE_FILE_MODE,
      highWaterMark: WRITE_BUFFER_BYTES,
    });
    let size = 0;
    let settled = false;

    const detach = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      body.off('aborted', onAborted);
      out.off('drain', onDrain);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      detach();
      body.pause();
      const error = err instanceof Error ? err : new Error(String(err));
      // Reject only once the file is closed: a stream destroyed while still opening creates the file
      // afterwards, and the caller's cleanup (rm of the temp file) would run before it exists and leak it.
      if (out.closed) reject(error);
      else {
        out.once('close', () => reject(error));
        out.destroy();
      }
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      try {
        checkLimits(size, limits, false);
      } catch (err) {
        fail(err);
        return;
      }
      hash.update(buf);
      if (!out.write(buf)) {
        body.pause();
        out.once('drain', onDrain);
      }
    };
    const onDrain = () => {
      if (!settled) body.resume();
    };
    const onEnd = () => {
      try {
        checkLimits(size, limits, true);
      } catch (err) {
        fail(err);
        return;
      }
      detach();
      out.end();
    };
    const onError = (err: Error) => fail(err);
    const onAborted = () => fail(new Error('the upload was aborted before it finished'));
    // A stream destroyed without an error emits 'close' and never 'end': that is a truncated body too.
    const onClose = () => fail(new Error('the body closed before it ended'));

    out.on('error', fail);
    out.on('close', () => {
      if (settled) return;
      if (out.writableFinished) {
        settled = true;
        resolve(size);
      } else {
        fail(new Error('the file closed before the body was written'));
      }
    });
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
    body.on('aborted', onAborted);
    body.resume();
  });
}
