// Genuine media made from scratch for tests and benchmarks, so the server's inspection (byte sniffing,
// audio metadata, image dimensions) sees real files rather than mocks.
import { crc32, deflateSync } from 'node:zlib';

export interface PcmFormat {
  rate?: number;
  channels?: number;
  bits?: number;
}

/** The 44-byte RIFF/WAVE header of a PCM file carrying `dataBytes` of samples. */
export function wavHeader(
  dataBytes: number,
  { rate = 44_100, channels = 2, bits = 16 }: PcmFormat = {},
): Buffer {
  const blockAlign = (channels * bits) / 8;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(bits, 34);
  h.write('data', 36);
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** A 16-bit PCM WAV of `seconds`: silence, or a 440 Hz tone with `tone`. */
export function wav(
  seconds: number,
  { tone = false, ...format }: PcmFormat & { tone?: boolean } = {},
): Buffer {
  const rate = format.rate ?? 44_100;
  const channels = format.channels ?? 2;
  const frames = rate * seconds;
  const data = Buffer.alloc(frames * channels * 2);
  if (tone) {
    for (let i = 0; i < frames; i++) {
      const sample = Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 0.3 * 32767);
      for (let c = 0; c < channels; c++) data.writeInt16LE(sample, (i * channels + c) * 2);
    }
  }
  return Buffer.concat([wavHeader(data.length, { rate, channels, bits: 16 }), data]);
}

function pngChunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** An 8-bit RGB PNG (RGBA, half transparent, with `alpha`): a horizontal gradient, so not trivially blank. */
export function png(width: number, height: number, { alpha = false } = {}): Buffer {
  const channels = alpha ? 4 : 3;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = alpha ? 6 : 2; // colour type: RGBA or RGB
  const row = Buffer.alloc(1 + width * channels); // filter byte 0 (None), then pixels
  for (let x = 0; x < width; x++) {
    row[1 + x * channels] = Math.floor((x / width) * 255);
    row[2 + x * channels] = 80;
    row[3 + x * channels] = 160;
    if (alpha) row[4 + x * channels] = 128;
  }
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The smallest file storage's sniffer takes for an MP4 video: an `ftyp` box (brand isom) followed by an
 * empty `mdat` box and `padding` bytes of payload.
 */
export function mp4(padding = 64): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftyp', 4, 'ascii');
  ftyp.write('isom', 8, 'ascii');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isom', 16, 'ascii');
  ftyp.write('mp41', 20, 'ascii');
  const mdat = Buffer.alloc(8 + padding);
  mdat.writeUInt32BE(8 + padding, 0);
  mdat.write('mdat', 4, 'ascii');
  for (let i = 0; i < padding; i++) mdat[8 + i] = i % 251;
  return Buffer.concat([ftyp, mdat]);
}
