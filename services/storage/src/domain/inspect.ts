// What an uploaded object really is: the sniffed type from its bytes (file-type), then for audio its format
// and duration (music-metadata) and for images their format, size and colour mode (sharp). Only ranges of
// the object are read for sniffing and audio; images (at most 50 MB) are read once, streamed into sharp.
import type { Logger } from '@omni/platform';
import { fileTypeFromTokenizer } from 'file-type';
import { parseFromTokenizer } from 'music-metadata';
import sharp, { type Metadata } from 'sharp';
import type { ObjectStore } from '../providers/objects/port';
import { type ContentKind, describeSize, SIZE_LIMITS } from './buckets';
import { ObjectTokenizer } from './object-tokenizer';

export interface Inspection {
  kind: ContentKind | 'document';
  mimeType: string;
  format: string;
  size: number;
  durationSeconds: number;
  sampleRate: number;
  bitDepth: number;
  channels: number;
  codec: string;
  width: number;
  height: number;
  colorMode: string;
  /** Why the file could not be read as what it claims to be (filled by inspection itself). */
  unreadable?: string;
}

const EXECUTABLE_MIMES = new Set([
  'application/x-elf',
  'application/x-msdownload',
  'application/x-mach-binary',
  'application/x-executable',
  'application/x-sharedlib',
  'application/vnd.microsoft.portable-executable',
]);
const WORD_MIMES = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
  'application/rtf',
]);

export function kindOf(mime: string, fileName: string): ContentKind | 'document' {
  if (EXECUTABLE_MIMES.has(mime)) return 'executable';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime === 'application/pdf') return 'pdf';
  if (WORD_MIMES.has(mime)) return 'word';
  // An OLE compound file is a .doc, but also an .msi or .xls: only the name can tell them apart here.
  if (mime === 'application/x-cfb' && /\.(doc|dot)$/i.test(fileName)) return 'word';
  if (mime === 'application/octet-stream') return 'other';
  return 'document';
}

export function emptyInspection(size: number): Inspection {
  return {
    kind: 'other',
    mimeType: 'application/octet-stream',
    format: '',
    size,
    durationSeconds: 0,
    sampleRate: 0,
    bitDepth: 0,
    channels: 0,
    codec: '',
    width: 0,
    height: 0,
    colorMode: '',
  };
}

export async function inspectObject(
  objects: ObjectStore,
  target: { bucket: string; key: string; size: number; fileName: string },
  log: Logger,
): Promise<Inspection> {
  const { bucket, key, size } = target;
  const result = emptyInspection(size);
  if (size === 0) return result;

  const sniffed = await fileTypeFromTokenizer(new ObjectTokenizer(objects, bucket, key, size));
  if (sniffed) {
    result.mimeType = sniffed.mime;
    result.format = sniffed.ext;
  }
  result.kind = sniffed ? kindOf(sniffed.mime, target.fileName) : 'other';

  if (result.kind === 'audio') {
    try {
      // The parser is chosen by the sniffed extension (music-metadata's MIME lookup is not needed for that).
      const tokenizer = new ObjectTokenizer(objects, bucket, key, size, `sniffed.${result.format}`);
      const { format } = await parseFromTokenizer(tokenizer, { skipCovers: true, duration: false });
      // A broken header (0 channels, 0 block size) makes the computed length infinite: that is no length.
      result.durationSeconds = Number.isFinite(format.duration) ? round(format.duration ?? 0, 3) : 0;
      result.sampleRate = format.sampleRate ?? 0;
      result.bitDepth = format.bitsPerSample ?? 0;
      result.channels = format.numberOfChannels ?? 0;
      result.codec = format.codec ?? '';
      log.debug({ bucket, key, reads: tokenizer.reads }, 'audio inspected');
    } catch (err) {
      result.unreadable = (err as Error).message;
    }
  } else if (result.kind === 'image') {
    if (size > SIZE_LIMITS.image) {
      result.unreadable = `Images may be at most ${describeSize(SIZE_LIMITS.image)}; this one is ${describeSize(size)}.`;
      return result;
    }
    try {
      const meta = await imageMetadata(objects, bucket, key);
      result.width = meta.width ?? 0;
      result.height = meta.height ?? 0;
      result.colorMode = colourMode(meta.space, meta.channels, meta.hasAlpha);
      if (meta.format) result.format = meta.format === 'jpeg' ? 'jpg' : meta.format;
    } catch (err) {
      result.unreadable = (err as Error).message;
    }
  }
  return result;
}

async function imageMetadata(objects: ObjectStore, bucket: string, key: string): Promise<Metadata> {
  const source = await objects.getObject(bucket, key);
  // sharp collects a streamed input before reading its header: bounded by the 50 MB image limit checked above.
  const reader = sharp({ failOn: 'none' });
  source.on('error', (err) => reader.destroy(err));
  source.pipe(reader);
  try {
    return await reader.metadata();
  } finally {
    source.destroy();
  }
}

/** sharp's colour spaces as the stores name them; RGB with an alpha channel is 'rgba', which is not RGB. */
function colourMode(space: string | undefined, channels: number | undefined, hasAlpha = false): string {
  switch (space) {
    case 'srgb':
    case 'rgb':
    case 'rgb16':
    case 'scrgb':
      return hasAlpha ? 'rgba' : 'rgb';
    case 'cmyk':
      return 'cmyk';
    case 'b-w':
    case 'grey16':
      return 'grayscale';
    case undefined:
      return channels === 1 ? 'grayscale' : '';
    default:
      return space;
  }
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
