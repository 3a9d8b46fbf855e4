// The FLAC adapter: a WAV master (16 and 24 bit, a tone) becomes a FLAC that music-metadata reads back with
// the same rate, bits, channels and duration, and that libFLAC's own decoder turns back into the very same
// PCM samples (lossless), its STREAMINFO MD5 filled in after encoding.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import libflac from 'libflacjs';
import { parseFile } from 'music-metadata';
import { wav, wavHeader } from '../../../tests/support/media';
import { createFlacTranscoder } from '../src/providers/transcoder/flac';
import { TranscodeError } from '../src/providers/transcoder/port';

const Flac = libflac();
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flac-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** Decodes a FLAC file to interleaved little-endian PCM bytes (the WAV data chunk's layout). */
function decode(flac: Buffer): Buffer {
  const decoder = Flac.create_libflac_decoder(true);
  let at = 0;
  const out: Buffer[] = [];
  Flac.init_decoder_stream(
    decoder,
    (n: number) => {
      const part = flac.subarray(at, at + n);
      at += part.length;
      return { buffer: new Uint8Array(part), readDataLength: part.length, error: false };
    },
    (channels, frame) => {
      // libflacjs hands 24-bit samples as 4-byte little-endian words: keep their low 3 bytes.
      const width = frame.bitsPerSample / 8;
      const stride = (channels[0]?.length ?? 0) / frame.blocksize;
      const block = Buffer.alloc(frame.blocksize * width * channels.length);
      for (let i = 0; i < frame.blocksize; i++)
        for (let c = 0; c < channels.length; c++)
          block.set(channels[c]!.subarray(i * stride, i * stride + width), (i * channels.length + c) * width);
      out.push(block);
    },
    (code: number, text: unknown) => {
      throw new Error(`decode error ${code} ${String(text)}`);
    },
  );
  expect(Flac.FLAC__stream_decoder_process_until_end_of_stream(decoder)).toBeTruthy();
  // With checking on, finish is false when the audio does not match the STREAMINFO MD5 we wrote.
  expect(Flac.FLAC__stream_decoder_finish(decoder)).toBeTruthy();
  Flac.FLAC__stream_decoder_delete(decoder);
  return Buffer.concat(out);
}

/** A 24-bit stereo tone. */
function wav24(seconds: number, rate = 48_000): Buffer {
  const frames = rate * seconds;
  const data = Buffer.alloc(frames * 2 * 3);
  for (let i = 0; i < frames; i++) {
    const s = Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 0.5 * 8_388_607);
    data.writeIntLE(s, i * 6, 3);
    data.writeIntLE(-s, i * 6 + 3, 3);
  }
  return Buffer.concat([wavHeader(data.length, { rate, channels: 2, bits: 24 }), data]);
}

test.each([
  ['16-bit 44.1 kHz stereo', wav(3, { tone: true }), { rate: 44_100, bits: 16, channels: 2, seconds: 3 }],
  [
    '16-bit 44.1 kHz mono',
    wav(2, { tone: true, channels: 1 }),
    { rate: 44_100, bits: 16, channels: 1, seconds: 2 },
  ],
  ['24-bit 48 kHz stereo', wav24(2), { rate: 48_000, bits: 24, channels: 2, seconds: 2 }],
])('a %s WAV encodes to a FLAC with the same format and samples', async (name, master, want) => {
  const input = path.join(dir, `${name}.wav`);
  const output = path.join(dir, `${name}.flac`);
  await fs.writeFile(input, master);
  const facts = await createFlacTranscoder().transcode(input, output, 'flac');
  expect(facts).toEqual({
    sampleRate: want.rate,
    bitsPerSample: want.bits,
    channels: want.channels,
    frames: want.rate * want.seconds,
  });

  const meta = await parseFile(output);
  expect(meta.format.container).toBe('FLAC');
  expect(meta.format.sampleRate).toBe(want.rate);
  expect(meta.format.bitsPerSample).toBe(want.bits);
  expect(meta.format.numberOfChannels).toBe(want.channels);
  expect(meta.format.duration).toBeCloseTo(want.seconds, 3);

  const flac = await fs.readFile(output);
  expect(flac.length).toBeLessThan(master.length);
  // The STREAMINFO MD5 (bytes 26..41) was written into place: not all zero.
  expect(flac.subarray(26, 42).equals(Buffer.alloc(16))).toBe(false);
  expect(decode(flac).equals(master.subarray(44))).toBe(true);
});

test('a WAV that is not integer PCM is a TranscodeError, not a crash', async () => {
  const input = path.join(dir, 'float.wav');
  const master = wav(1);
  master.writeUInt16LE(3, 20); // IEEE float
  await fs.writeFile(input, master);
  await expect(createFlacTranscoder().transcode(input, path.join(dir, 'x.flac'), 'flac')).rejects.toThrow(
    TranscodeError,
  );
});
