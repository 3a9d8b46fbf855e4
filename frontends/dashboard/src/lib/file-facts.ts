// Reads what a chosen file's header says (an image's format, size and colour mode; an audio file's format,
// bit depth, sample rate and channels) from its first bytes, in the browser, so the release forms can apply
// the stores' rules (@omni/proto/api release-files, the rules storage judges with) before a byte is sent
// (issue 21 §3.7). Only headers are read: a 500 MB master costs a few kilobytes. When a header cannot be
// read here the answer is undefined and the server, which reads every byte, has the last word.
import {
  type AudioFacts,
  COVER_ART_RULE_TEXT,
  coverArtProblems,
  type ImageFacts,
  MASTER_AUDIO_RULE_TEXT,
  masterAudioProblems,
} from '@omni/proto/api';

/** How far into a file a header may be looked for (a JPEG's size follows its EXIF and ICC blocks). */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

async function bytesOf(file: Blob, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32le = (b: Uint8Array, at: number) =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 2 ** 24;

/** A PNG: IHDR's size and colour type; a tRNS chunk before the image data also means transparency. */
async function pngFacts(file: Blob, head: Uint8Array): Promise<ImageFacts> {
  const width = u32be(head, 16);
  const height = u32be(head, 20);
  const colourType = head[25];
  let transparent = colourType === 6 || colourType === 4;
  // Walk the chunks after IHDR until the image data: palette and RGB images carry transparency in tRNS.
  let at = 8;
  while (!transparent && at + 8 <= MAX_HEADER_BYTES) {
    const chunk = await bytesOf(file, at, at + 8);
    if (chunk.length < 8) break;
    const type = ascii(chunk, 4, 4);
    if (type === 'tRNS') transparent = true;
    if (type === 'IDAT' || type === 'IEND') break;
    at += 12 + u32be(chunk, 0);
  }
  // Greyscale (0, or 4 with alpha) is not RGB whatever its alpha; sharp names it so on the server too.
  const colorMode = colourType === 0 || colourType === 4 ? 'grayscale' : transparent ? 'rgba' : 'rgb';
  return { format: 'png', width, height, colorMode };
}

/** A JPEG: the first start-of-frame marker holds the size and the number of colour components. */
async function jpegFacts(file: Blob): Promise<ImageFacts | undefined> {
  let at = 2;
  while (at + 4 <= MAX_HEADER_BYTES) {
    const marker = await bytesOf(file, at, at + 10);
    if (marker.length < 4 || marker[0] !== 0xff) return undefined;
    const type = marker[1]!;
    if (type === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const isFrame = type >= 0xc0 && type <= 0xcf && type !== 0xc4 && type !== 0xc8 && type !== 0xcc;
    if (isFrame) {
      if (marker.length < 10) return undefined;
      const components = marker[9];
      const colorMode =
        components === 3 ? 'rgb' : components === 1 ? 'grayscale' : components === 4 ? 'cmyk' : '';
      return { format: 'jpg', height: u16be(marker, 5), width: u16be(marker, 7), colorMode };
    }
    if (type === 0xd9 || type === 0xda) return undefined; // end of image or scan data before any frame
    at += 2 + u16be(marker, 2);
  }
  return undefined;
}

/** Formats the stores refuse as cover art, named so the message can say what the file is. */
function otherImageFormat(head: Uint8Array): string | undefined {
  if (ascii(head, 0, 4) === 'GIF8') return 'gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return 'webp';
  if (ascii(head, 0, 2) === 'BM') return 'bmp';
  if (ascii(head, 4, 4) === 'ftyp' && /^(heic|heix|mif1|avif)/.test(ascii(head, 8, 4)))
    return ascii(head, 8, 4);
  if (ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*') return 'tiff';
  return undefined;
}

/** What the image's header says; undefined when this is no image the browser can read a header of. */
export async function readImageFacts(file: Blob): Promise<ImageFacts | undefined> {
  const head = await bytesOf(file, 0, 64);
  if (head.length >= 26 && head[0] === 0x89 && ascii(head, 1, 3) === 'PNG') return pngFacts(file, head);
  if (head[0] === 0xff && head[1] === 0xd8) return jpegFacts(file);
  const other = otherImageFormat(head);
  // Another image format: refused for its format whatever its size (the message names it).
  return other ? { format: other, width: 0, height: 0, colorMode: '' } : undefined;
}

/** A WAV's fmt chunk: channels, sample rate, bits per sample. */
async function wavFacts(file: Blob): Promise<AudioFacts | undefined> {
  let at = 12;
  while (at + 8 <= MAX_HEADER_BYTES) {
    const chunk = await bytesOf(file, at, at + 24);
    if (chunk.length < 8) return undefined;
    const size = u32le(chunk, 4);
    if (ascii(chunk, 0, 4) === 'fmt ') {
      if (chunk.length < 24) return undefined;
      return {
        format: 'wav',
        channels: u16le(chunk, 10),
        sampleRate: u32le(chunk, 12),
        bitDepth: u16le(chunk, 22),
      };
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** A FLAC's STREAMINFO block (always first): sample rate (20 bits), channels (3) and bits per sample (5). */
function flacFacts(head: Uint8Array): AudioFacts | undefined {
  if (head.length < 26) return undefined;
  const b = head.subarray(18);
  const sampleRate = (b[0]! << 12) | (b[1]! << 4) | (b[2]! >> 4);
  const channels = ((b[2]! >> 1) & 0x07) + 1;
  const bitDepth = (((b[2]! & 0x01) << 4) | (b[3]! >> 4)) + 1;
  return { format: 'flac', sampleRate, channels, bitDepth };
}

/** Audio formats that are not lossless masters, named for the message; their other facts do not matter. */
function lossyOrOtherFormat(head: Uint8Array): string | undefined {
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(head, 0, 4) === 'OggS') return 'ogg';
  if (ascii(head, 0, 4) === 'FORM' && /^AIF[FC]$/.test(ascii(head, 8, 4))) return 'aiff';
  if (ascii(head, 4, 4) === 'ftyp') return 'm4a';
  return undefined;
}

/** What an audio file's header says; undefined when the browser cannot tell (the server will). */
export async function readAudioFacts(file: Blob): Promise<AudioFacts | undefined> {
  const head = await bytesOf(file, 0, 64);
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WAVE') return wavFacts(file);
  if (ascii(head, 0, 4) === 'fLaC') return flacFacts(head);
  const other = lossyOrOtherFormat(head);
  // Refused for its format alone; the sample rate is left at a passing value so only the format is named.
  return other ? { format: other, bitDepth: 0, sampleRate: 48_000, channels: 2 } : undefined;
}

/**
 * How long the audio lasts, from its header (WAV: the byte rate against the file's size; FLAC: STREAMINFO's
 * total samples); undefined when the browser cannot tell. Good enough for the stores' release-type rule.
 */
export async function readAudioSeconds(file: Blob): Promise<number | undefined> {
  try {
    const head = await bytesOf(file, 0, 64);
    if (ascii(head, 0, 4) === 'fLaC' && head.length >= 26) {
      const b = head.subarray(18);
      const sampleRate = (b[0]! << 12) | (b[1]! << 4) | (b[2]! >> 4);
      const samples = (b[3]! & 0x0f) * 2 ** 32 + ((b[4]! << 24) >>> 0) + (b[5]! << 16) + (b[6]! << 8) + b[7]!;
      return sampleRate > 0 && samples > 0 ? samples / sampleRate : undefined;
    }
    if (ascii(head, 0, 4) !== 'RIFF' || ascii(head, 8, 4) !== 'WAVE') return undefined;
    let at = 12;
    while (at + 8 <= MAX_HEADER_BYTES) {
      const chunk = await bytesOf(file, at, at + 24);
      if (chunk.length < 8) return undefined;
      const size = u32le(chunk, 4);
      if (ascii(chunk, 0, 4) === 'fmt ' && chunk.length >= 24) {
        const byteRate = u32le(chunk, 16);
        return byteRate > 0 ? Math.max(0, file.size - 44) / byteRate : undefined;
      }
      at += 8 + size + (size % 2);
    }
  } catch {
    // unreadable here: the server measures every file
  }
  return undefined;
}

/** A file checked in the browser: what is wrong with it by the stores' rules (empty when it passes). */
export interface FileCheck {
  problems: string[];
}

/** The cover art rules applied to the chosen file's header; no problems when the header is unknown here. */
export async function checkCoverArt(file: File): Promise<FileCheck> {
  try {
    const facts = await readImageFacts(file);
    return { problems: facts ? coverArtProblems(facts) : [] };
  } catch {
    return { problems: [] }; // unreadable here: the server reads every byte and says what is wrong
  }
}

/** The release-master rules applied to the chosen file's header; no problems when the header is unknown here. */
export async function checkMasterAudio(file: File): Promise<FileCheck> {
  try {
    const facts = await readAudioFacts(file);
    return { problems: facts ? masterAudioProblems(facts) : [] };
  } catch {
    return { problems: [] };
  }
}

export { COVER_ART_RULE_TEXT, MASTER_AUDIO_RULE_TEXT };
