// What a release's files and codes must be, written once for both sides: storage judges the uploaded bytes
// with these rules (services/storage/src/domain/store-rules.ts), catalog checks typed ISRCs and UPCs with
// them (services/catalog/src/domain/codes.ts), and the web app checks a chosen file's header and a typed
// code before a byte is sent (issue 21 §3.7), with the same words. Pure functions, no I/O, no zod: a screen
// importing them carries a few hundred bytes.

/** Cover art: JPG or PNG, square, at least 3000×3000 pixels, RGB without transparency (spec §9, the stores). */
export const COVER_ART_RULES = {
  minPixels: 3000,
  formats: ['jpg', 'png'],
} as const;

/** A release master: lossless WAV or FLAC, 16 or 24 bit, at least 44.1 kHz, at most two channels. */
export const MASTER_AUDIO_RULES = {
  formats: ['wav', 'flac'],
  bitDepths: [16, 24],
  minSampleRate: 44_100,
  maxChannels: 2,
} as const;

/** The rules in a sentence, for the page to say what is checked before upload. */
export const COVER_ART_RULE_TEXT = `JPG or PNG, square, at least ${COVER_ART_RULES.minPixels}×${COVER_ART_RULES.minPixels} pixels, RGB without transparency`;
export const MASTER_AUDIO_RULE_TEXT = 'WAV or FLAC, 16 or 24 bit, 44.1 kHz or more, mono or stereo';

/** What an image's header says. colorMode: 'rgb', 'rgba' (RGB with alpha), 'grayscale', 'cmyk', ... */
export interface ImageFacts {
  format: string;
  width: number;
  height: number;
  colorMode: string;
}

/** What is wrong with a readable image as cover art, each as a sentence saying what is needed; [] if fine. */
export function coverArtProblems({ format, width, height, colorMode }: ImageFacts): string[] {
  const problems: string[] = [];
  const min = COVER_ART_RULES.minPixels;
  if (!(COVER_ART_RULES.formats as readonly string[]).includes(format)) {
    problems.push(
      `Cover art must be a JPG or PNG image; this one is ${format.toUpperCase() || 'in an unknown format'}.`,
    );
  }
  if (width !== height) {
    problems.push(`Cover art must be square; this image is ${width}x${height}.`);
  }
  if (Math.min(width, height) < min) {
    problems.push(`Cover art must be at least ${min}x${min} pixels; this image is ${width}x${height}.`);
  }
  // Stores ask for RGB. An alpha channel is not RGB: stores flatten transparency onto a background of their
  // choosing (black on some, white on others), so the cover would not look as the artist made it.
  if (colorMode === 'rgba') {
    problems.push(
      'Cover art must be RGB without transparency; this image has an alpha channel. Save it as JPG, or as PNG without transparency.',
    );
  } else if (colorMode !== 'rgb') {
    problems.push(
      `Cover art must be in RGB colour; this image is ${colorMode.toUpperCase() || 'in an unknown colour mode'}.`,
    );
  }
  return problems;
}

/** What an audio file's header says (format: 'wav', 'flac', 'mp3', ...). */
export interface AudioFacts {
  format: string;
  bitDepth: number;
  sampleRate: number;
  channels: number;
}

const describeRate = (hz: number) => `${(hz / 1000).toLocaleString('en', { maximumFractionDigits: 2 })} kHz`;

/** What is wrong with playable audio as a release master, each as a sentence saying what is needed. */
export function masterAudioProblems({ format, bitDepth, sampleRate, channels }: AudioFacts): string[] {
  const problems: string[] = [];
  if (!(MASTER_AUDIO_RULES.formats as readonly string[]).includes(format)) {
    problems.push(
      `Stores take release masters only as lossless WAV or FLAC; this file is ${format.toUpperCase() || 'in another format'}. Export the master as WAV or FLAC.`,
    );
  } else if (!(MASTER_AUDIO_RULES.bitDepths as readonly number[]).includes(bitDepth)) {
    problems.push(
      `Stores take release masters at 16 or 24 bit; this file is ${bitDepth ? `${bitDepth} bit` : 'of unknown bit depth'}. Export it again at 16 or 24 bit.`,
    );
  }
  if (sampleRate < MASTER_AUDIO_RULES.minSampleRate) {
    problems.push(
      `Stores take release masters at 44.1 kHz or more; this file is ${describeRate(sampleRate)}. Export it again at 44.1 kHz or more (resampling up does not add quality: use the original session).`,
    );
  }
  if (channels > MASTER_AUDIO_RULES.maxChannels) {
    problems.push(
      `Stores take release masters in stereo; this file has ${channels} channels. Export a stereo mix.`,
    );
  }
  return problems;
}

// ---- codes ---------------------------------------------------------------------------------------------

/** Any well-formed ISRC: country (2 letters), registrant (3 alphanumerics), year (2), designation (5). */
const ISRC_SHAPE = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

export const ISRC_RULE =
  'ISRC must be 12 letters and digits like QZQDU2600001 (country, registrant, year, number); leave it blank to get one.';
export const UPC_RULE =
  'UPC must be 12 to 14 digits ending in a valid check digit; leave it blank to get one.';

/** Uppercases and drops the dashes and spaces people type ('us-s1z-99-00001'); undefined when malformed. */
export function normalizeIsrc(input: string): string | undefined {
  const compact = input.replace(/[\s-]/g, '').toUpperCase();
  return ISRC_SHAPE.test(compact) ? compact : undefined;
}

/** GS1 check digit: from the right, weights 3 and 1 alternate; the digit brings the sum to a multiple of 10. */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

/** A UPC/EAN/GTIN of 12 to 14 digits whose last digit is its GS1 check digit (no spaces or dashes). */
export function isValidUpc(upc: string): boolean {
  return /^\d{12,14}$/.test(upc) && gs1CheckDigit(upc.slice(0, -1)) === Number(upc.at(-1));
}

/** A typed UPC without the spaces and dashes people put in it. */
export const compactUpc = (input: string) => input.replace(/[\s-]/g, '');
