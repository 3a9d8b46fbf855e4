// The cover (shared/design/delivery.md: 3000x3000, 1:1, JPEG or PNG, RGB — no CMYK, no grayscale), from
// storage's inspection of the file the release names. Every store has these rules, so findings concern all.
import type { ReviewFinding } from '@omni/proto/api';
import type { CoverFacts } from './model';

const MIN_PIXELS = 3000;
const FORMATS = new Set(['jpg', 'jpeg', 'png']);

export function artworkFindings(cover: CoverFacts | null): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  const error = (rule: string, message: string) => out.push({ rule, severity: 'error', stores: [], message });
  if (!cover) {
    error('artwork.missing', 'The release has no cover art we can read. Upload a 3000x3000 JPG or PNG.');
    return out;
  }
  const { width, height, format, colorMode } = cover;
  if (!FORMATS.has(format))
    error(
      'artwork.format',
      `Cover art must be a JPG or PNG image; this one is ${format.toUpperCase() || 'in an unknown format'}. Save it as JPG or PNG.`,
    );
  if (width !== height)
    error('artwork.square', `Cover art must be square; this image is ${width}x${height}. Crop it to 1:1.`);
  if (Math.min(width, height) < MIN_PIXELS)
    error(
      'artwork.size',
      `Cover art must be at least ${MIN_PIXELS}x${MIN_PIXELS} pixels; this image is ${width}x${height}. Export it again from the original (upscaling is refused too).`,
    );
  if (colorMode === 'rgba')
    error(
      'artwork.color-mode',
      'Cover art must be RGB without transparency; this image has an alpha channel. Save it as JPG, or as PNG without transparency.',
    );
  else if (colorMode !== 'rgb')
    error(
      'artwork.color-mode',
      `Cover art must be in RGB colour; this image is ${colorMode.toUpperCase() || 'in an unknown colour mode'}. Convert it to RGB.`,
    );
  return out;
}
