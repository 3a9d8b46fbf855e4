// Passes through at most `limit` bytes of a stream, then ends and stops the source. Guards range reads
// against servers that answer a Range with more than was asked (s3rver ignores an end of 0 and returns
// the whole object), so the port's "inclusive range" holds whatever the server.
import { type Readable, Transform } from 'node:stream';

export function takeBytes(source: Readable, limit: number): Readable {
  let remaining = limit;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (remaining <= 0) return callback();
      const slice = chunk.length > remaining ? chunk.subarray(0, remaining) : chunk;
      remaining -= slice.length;
      this.push(slice);
      if (remaining <= 0) {
        this.push(null);
        // Nothing more is wanted: stop downloading the rest.
        source.unpipe(out);
        source.destroy();
      }
      callback();
    },
  });
  source.on('error', (err) => out.destroy(err));
  source.pipe(out);
  return out;
}
