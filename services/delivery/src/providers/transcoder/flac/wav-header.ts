// Finds a WAV file's format and its PCM data: walks the RIFF chunks (a `LIST` or `bext` chunk may sit
// between `fmt ` and `data`), reading only the file's head, never the audio.
import fs from 'node:fs/promises';
import { TranscodeError } from '../port';

export interface WavLayout {
  sampleRate: number;
  bitsPerSample: number;
  channels: number;
  /** Byte offset and length of the `data` chunk's samples. */
  dataOffset: number;
  dataBytes: number;
}

const HEAD_BYTES = 1 << 16;
const PCM = 1;
const EXTENSIBLE = 0xfffe;

export async function readWavLayout(file: string): Promise<WavLayout> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    if (head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE')
      throw new TranscodeError('the master is not a RIFF/WAVE file');
    let at = 12;
    let format: Omit<WavLayout, 'dataOffset' | 'dataBytes'> | null = null;
    while (at + 8 <= head.length) {
      const id = head.toString('ascii', at, at + 4);
      const length = head.readUInt32LE(at + 4);
      const body = at + 8;
      if (id === 'fmt ') {
        const tag = head.readUInt16LE(body);
        const subFormat = tag === EXTENSIBLE && length >= 26 ? head.readUInt16LE(body + 24) : tag;
        if (subFormat !== PCM) throw new TranscodeError(`the WAV holds format ${tag}, not integer PCM`);
        format = {
          channels: head.readUInt16LE(body + 2),
          sampleRate: head.readUInt32LE(body + 4),
          bitsPerSample: head.readUInt16LE(body + 14),
        };
      } else if (id === 'data') {
        if (!format) throw new TranscodeError('the WAV has its data before its format');
        // A data length past the end (a streamed WAV written with 0 or 0xFFFFFFFF) means "to the end".
        const dataBytes = Math.min(length, size - body);
        return { ...format, dataOffset: body, dataBytes };
      }
      at = body + length + (length % 2); // chunks are word-aligned
    }
    throw new TranscodeError('the WAV has no data chunk in its first 64 KB');
  } finally {
    await handle.close();
  }
}
