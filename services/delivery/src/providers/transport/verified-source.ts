// Counts and hashes the bytes as they go out, and fails the stream at its end when they are not what the
// batch declared: an adapter then never renames (or completes) the file, so a short or corrupt source
// never lands under its final name.
import { createHash } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import { TransportError } from './port';

export function verifiedSource(source: Readable, path: string, size: number, sha256?: string): Readable {
  const hash = createHash('sha256');
  let seen = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      seen += chunk.length;
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      if (seen !== size) {
        callback(new TransportError('bad-batch', `${path}: source gave ${seen} bytes, ${size} declared`));
        return;
      }
      const digest = hash.digest('hex');
      if (sha256 && digest !== sha256.toLowerCase()) {
        callback(
          new TransportError('bad-batch', `${path}: content hash ${digest} is not the declared ${sha256}`),
        );
        return;
      }
      callback();
    },
  });
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}
