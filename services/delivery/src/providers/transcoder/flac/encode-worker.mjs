// Encodes one WAV's PCM to FLAC off the caller's thread. libFLAC compiled to asm.js (libflacjs) encodes
// synchronously: on the service's own thread each 256 KB step held the event loop for ~20 ms, which in
// the all-in-one mode every other service felt. Plain Node ESM, like the XSD validator's worker, so it
// runs the same under tsx, jest and production. The caller (index.ts) has read and checked the WAV's
// header and hands over where its samples are.
import { createReadStream, writeSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const Flac = require('libflacjs')();
/** libFLAC's default; higher levels cost time for a few percent of size. */
const COMPRESSION = 5;
const CHUNK_BYTES = 1 << 18;

class TranscodeError extends Error {}

/** Little-endian signed 16/24-bit samples → the Int32Array libFLAC takes. */
function toInt32(bytes, length, bytesPerSample) {
  const count = length / bytesPerSample;
  const samples = new Int32Array(count);
  if (bytesPerSample === 2) {
    for (let i = 0; i < count; i++) samples[i] = bytes.readInt16LE(i * 2);
  } else {
    for (let i = 0; i < count; i++) samples[i] = bytes.readIntLE(i * 3, 3);
  }
  return samples;
}

function writeAll(fd, data, position) {
  // fs.writeSync may write less than asked; loop until the chunk is out.
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done, position + done);
  return done;
}

/**
 * libFLAC's stream encoder cannot seek back, so the STREAMINFO block it wrote first lacks the frame sizes
 * and the audio's MD5: min/max frame size (24 bit each) at bytes 12..17 of the file, the MD5 at 26..41.
 */
async function patchStreamInfo(out, info) {
  const sizes = Buffer.alloc(6);
  sizes.writeUIntBE(info.min_framesize, 0, 3);
  sizes.writeUIntBE(info.max_framesize, 3, 3);
  await out.write(sizes, 0, 6, 12);
  if (/^[0-9a-f]{32}$/i.test(info.md5sum)) await out.write(Buffer.from(info.md5sum, 'hex'), 0, 16, 26);
}

async function encode({ input, output, layout }) {
  const { channels, sampleRate, bitsPerSample, dataOffset, dataBytes } = layout;
  const bytesPerSample = bitsPerSample / 8;
  const frameBytes = bytesPerSample * channels;
  const frames = Math.floor(dataBytes / frameBytes);
  const encoder = Flac.create_libflac_encoder(sampleRate, channels, bitsPerSample, COMPRESSION, frames);
  if (!encoder) throw new TranscodeError('the FLAC encoder refused the format');
  const out = await fs.open(output, 'w', 0o600);
  let position = 0;
  let writeError = null;
  let info;
  try {
    // The write callback is synchronous: libFLAC calls it while encoding.
    const status = Flac.init_encoder_stream(
      encoder,
      (data) => {
        try {
          position += writeAll(out.fd, data, position);
        } catch (err) {
          writeError = err;
          return false;
        }
      },
      (meta) => {
        info = meta;
      },
    );
    if (status !== 0) throw new TranscodeError(`the FLAC encoder did not start (status ${status})`);
    let carry = Buffer.alloc(0);
    const stream = createReadStream(input, {
      start: dataOffset,
      end: dataOffset + frames * frameBytes - 1,
      highWaterMark: CHUNK_BYTES,
    });
    for await (const chunk of stream) {
      const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = bytes.length - (bytes.length % frameBytes);
      const samples = toInt32(bytes, whole, bytesPerSample);
      if (!Flac.FLAC__stream_encoder_process_interleaved(encoder, samples, whole / frameBytes))
        throw (
          writeError ??
          new TranscodeError(`FLAC encoding failed (state ${Flac.FLAC__stream_encoder_get_state(encoder)})`)
        );
      carry = Buffer.from(bytes.subarray(whole));
    }
    if (!Flac.FLAC__stream_encoder_finish(encoder))
      throw writeError ?? new TranscodeError('the FLAC encoder could not finish the stream');
    if (info) await patchStreamInfo(out, info);
    await out.sync();
    return { sampleRate, bitsPerSample, channels, frames };
  } finally {
    Flac.FLAC__stream_encoder_delete(encoder);
    await out.close();
  }
}

/** The module finishes setting itself up after it loads: wait for its 'ready' event first. */
function ready() {
  if (Flac.isReady()) return Promise.resolve();
  return new Promise((resolve) => Flac.on('ready', () => resolve()));
}

ready()
  .then(() => encode(workerData))
  .then(
    (facts) => parentPort.postMessage({ facts }),
    (err) =>
      parentPort.postMessage({
        error: String(err?.message ?? err),
        transcode: err instanceof TranscodeError,
      }),
  );
