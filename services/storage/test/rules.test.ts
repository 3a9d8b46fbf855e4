// The stores' rules for a release's files and the buckets' rules for everything else, applied to an
// inspection of the bytes: problems refuse the upload, warnings inform (docs/architecture.md, "What stores refuse").
import { claimedKind, describeSize, SIZE_LIMITS, sizeLimit } from '../src/domain/buckets';
import { emptyInspection, type Inspection } from '../src/domain/inspect';
import { effectiveRole, judge, roleFitsBucket } from '../src/domain/rules';

const wav = (over: Partial<Inspection> = {}): Inspection => ({
  ...emptyInspection(10_000_000),
  kind: 'audio',
  mimeType: 'audio/wav',
  format: 'wav',
  durationSeconds: 180,
  sampleRate: 44_100,
  bitDepth: 24,
  channels: 2,
  ...over,
});

const png = (over: Partial<Inspection> = {}): Inspection => ({
  ...emptyInspection(5_000_000),
  kind: 'image',
  mimeType: 'image/png',
  format: 'png',
  width: 3000,
  height: 3000,
  colorMode: 'rgb',
  ...over,
});

describe('release master (role audio)', () => {
  it('accepts a 24-bit 44.1 kHz stereo WAV', () => {
    expect(judge('omni-assets', 'audio', wav())).toEqual({ problems: [], warnings: [] });
  });

  it('refuses a lossy master and says what to export', () => {
    const { problems } = judge('omni-assets', 'audio', wav({ format: 'mp3', mimeType: 'audio/mpeg' }));
    expect(problems).toEqual([expect.stringContaining('lossless WAV or FLAC; this file is MP3')]);
  });

  it('refuses a low sample rate and more than two channels, each with its own message', () => {
    const { problems } = judge('omni-assets', 'audio', wav({ sampleRate: 22_050, channels: 6 }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('this file is 22.05 kHz');
    expect(problems[1]).toContain('this file has 6 channels');
  });

  it('keeps a mono master with a warning naming the stores that refuse it', () => {
    const { problems, warnings } = judge('omni-assets', 'audio', wav({ channels: 1 }));
    expect(problems).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('Beatport')]);
  });

  it('refuses a header that claims zero channels as unplayable', () => {
    expect(judge('omni-assets', 'audio', wav({ channels: 0 })).problems[0]).toContain('0 channels');
  });
});

describe('cover art (role artwork)', () => {
  it('accepts a square 3000 px RGB PNG', () => {
    expect(judge('omni-assets', 'artwork', png()).problems).toEqual([]);
  });

  it('refuses small, non-square and transparent images', () => {
    const { problems } = judge(
      'omni-assets',
      'artwork',
      png({ width: 1000, height: 800, colorMode: 'rgba' }),
    );
    expect(problems).toEqual([
      'Cover art must be square; this image is 1000x800.',
      'Cover art must be at least 3000x3000 pixels; this image is 1000x800.',
      expect.stringContaining('alpha channel'),
    ]);
  });

  it('refuses audio offered as cover art', () => {
    expect(judge('omni-assets', 'artwork', wav()).problems).toEqual([
      'Cover art must be a JPG or PNG image; this file is audio.',
    ]);
  });
});

describe('buckets', () => {
  it('refuses an executable anywhere and a wrong kind in a typed bucket', () => {
    const exe = { ...emptyInspection(100), kind: 'executable' as const };
    expect(judge('documents', '', exe).problems[0]).toMatch(
      /^Executable files cannot be uploaded to "documents"/,
    );
    expect(judge('contracts', '', png()).problems).toEqual([
      'The "contracts" bucket takes a PDF or a Word document; this file is an image.',
    ]);
  });

  it('judges what is in omni-assets by its bytes, and what is in audio as something to play', () => {
    expect(effectiveRole('omni-assets', '', png())).toBe('artwork');
    expect(effectiveRole('omni-assets', '', wav())).toBe('audio');
    expect(effectiveRole('audio', '', wav())).toBe('playable');
    expect(effectiveRole('documents', '', wav())).toBe('');
  });

  it('lets a role be asked only where the bucket holds that kind', () => {
    expect(roleFitsBucket('omni-assets', 'artwork')).toBe(true);
    expect(roleFitsBucket('audio', 'artwork')).toBe(false);
    expect(roleFitsBucket('documents', 'audio')).toBe(true);
  });

  it('limits sizes by what the file claims to be', () => {
    expect(claimedKind('Image/PNG; charset=binary')).toBe('image');
    expect(sizeLimit('omni-assets', 'image/png')).toBe(SIZE_LIMITS.image);
    expect(sizeLimit('omni-assets', 'application/octet-stream')).toBe(SIZE_LIMITS.audio);
    expect(describeSize(SIZE_LIMITS.audio)).toBe('2 GB');
    expect(describeSize(1536)).toBe('1.5 KB');
  });
});
