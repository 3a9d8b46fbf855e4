// WAV (integer PCM, 16 or 24 bit) → FLAC with libFLAC compiled to JavaScript (libflacjs, MIT; libFLAC is
// BSD). The asm.js build: it loads synchronously under plain Node, tsx and jest alike. (The WebAssembly
// build is about 4x faster but Node 20's global fetch makes its loader try to fetch the .wasm by path.)
// The WAV is read in chunks and fed to the encoder; encoded bytes go straight to the output file. libFLAC's
// stream encoder cannot seek back, so the STREAMINFO block it wrote first lacks the frame sizes and the
// audio's MD5: they are written into place once the encoder finishes.
import { createReadStream, writeSync as fsWriteSync } from 'node:fs';
import fs from 'node:fs/promises';
import libflac from 'libflacjs';
import { type AudioFormat, type PcmFacts, TranscodeError, type Transcoder } from '../port';
import { readWavLayout } from './wav-header';

const Flac = libflac();
/** libFLAC's default; higher levels cost time for a few percent of size. */
const COMPRESSION = 5;
/** Bytes of WAV read per step: the encoder runs synchronously, so a step holds the event loop ~20 ms. */
const CHUNK_BYTES = 1 << 18;

export function createFlacTranscoder(): Transcoder {
  return {
    supports: (from: AudioFormat, to: AudioFormat) => from === 'wav' && to === 'flac',
    async transcode(input, output, to) {
      if (to !== 'flac') throw new TranscodeError(`this encoder makes FLAC, not ${to}`);
      return wavToFlac(input, output);
    },
  };
}

async function wavToFlac(input: string, output: string): Promise<PcmFacts> {
  const wav = await readWavLayout(input);
  const { channels, sampleRate, bitsPerSample } = wav;
  if (bitsPerSample !== 16 && bitsPerSample !== 24)
    throw new TranscodeError(`a ${bitsPerSample}-bit WAV cannot be encoded (16 or 24 bit only)`);
  const bytesPerSample = bitsPerSample / 8;
  const frameBytes = bytesPerSample * channels;
  const frames = Math.floor(wav.dataBytes / frameBytes);
  const encoder = Flac.create_libflac_encoder(sampleRate, channels, bitsPerSample, COMPRESSION, frames);
  if (!encoder) throw new TranscodeError('the FLAC encoder refused the format');
  const out = await fs.open(output, 'w', 0o600);
  let position = 0;
  let writeError: unknown = null;
  let info: { min_framesize: number; max_framesize: number; md5sum: string } | undefined;
  try {
    // The write callback is synchronous: libFLAC calls it while encoding.
    const status = Flac.init_encoder_stream(
      encoder,
      (data: Uint8Array) => {
        try {
          position += writeSync(out.fd, data, position);
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
      start: wav.dataOffset,
      end: wav.dataOffset + frames * frameBytes - 1,
      highWaterMark: CHUNK_BYTES,
    });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
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

/** Little-endian signed 16/24-bit samples → the Int32Array libFLAC takes. */
function toInt32(bytes: Buffer, length: number, bytesPerSample: number): Int32Array<ArrayBuffer> {
  const count = length / bytesPerSample;
  const samples = new Int32Array(count);
  if (bytesPerSample === 2) {
    for (let i = 0; i < count; i++) samples[i] = bytes.readInt16LE(i * 2);
  } else {
    for (let i = 0; i < count; i++) samples[i] = bytes.readIntLE(i * 3, 3);
  }
  return samples;
}

function writeSync(fd: number, data: Uint8Array, position: number): number {
  // fs.writeSync may write less than asked; loop until the chunk is out.
  let done = 0;
  while (done < data.length) done += fsWriteSync(fd, data, done, data.length - done, position + done);
  return done;
}

/**
 * STREAMINFO sits right after `fLaC` and its 4-byte block header: min/max frame size (24 bit each) at
 * bytes 12..17 of the file, the audio's MD5 at 26..41. The sample count was known up front.
 */
async function patchStreamInfo(
  out: fs.FileHandle,
  info: { min_framesize: number; max_framesize: number; md5sum: string },
): Promise<void> {
  const sizes = Buffer.alloc(6);
  sizes.writeUIntBE(info.min_framesize, 0, 3);
  sizes.writeUIntBE(info.max_framesize, 3, 3);
  await out.write(sizes, 0, 6, 12);
  if (/^[0-9a-f]{32}$/i.test(info.md5sum)) await out.write(Buffer.from(info.md5sum, 'hex'), 0, 16, 26);
}
