// catalog.Release → the ERN input: ℗/© lines picked by their symbol, the deal start that never moves for a
// release without a date, resource names per the DDEX naming rule, and batch ids that only grow.

import type { catalog } from '@omni/proto';
import { buildNewReleaseMessage, createErnValidator } from '../src/domain/ddex';
import { nextBatchId } from '../src/domain/package/batch-id';
import type { PackageFiles } from '../src/domain/package/model';
import { dealStart, ernRelease, PackageError } from '../src/domain/package/release-input';
import { singleInput } from './support/ern-fixtures';

const staged = (sha: string) => ({
  bucket: 'b',
  fileKey: sha,
  path: `/s/${sha}`,
  sha256: sha.repeat(64).slice(0, 64),
  md5: 'm',
  size: 10,
});

const release = (over: Partial<catalog.Release> = {}): catalog.Release => ({
  excludedTerritories: [],
  preOrderDate: '',
  releaseTimeZone: '',
  featuredArtists: [],
  language: '',
  id: 'rel-1',
  ownerId: 'u1',
  title: 'Night Drive',
  releaseType: 'single',
  genre: 'Electronic',
  label: 'Moonlit Records',
  releaseDate: '2026-09-01',
  status: 'in_review',
  upc: '196000000012',
  artworkUrl: '',
  artist: { id: 'a1', name: 'Nova Reyes' },
  tracks: [
    {
      id: 't1',
      trackNumber: 1,
      title: 'Night Drive',
      isrc: 'QZES72600001',
      durationSeconds: 194.6,
      explicit: true,
      genre: 'Electronic',
      audioUrl: '',
      audio: { bucket: 'b', fileKey: 'k1' },
      audioFormat: { format: 'wav', sampleRate: 44100, bitDepth: 24, channels: 2 },
      featuredArtists: [],
      discNumber: 1,
      language: '',
      lyrics: '',
    },
  ],
  metadata: {
    legal: {
      copyrightLine: '© 2026 Nova Reyes',
      publishingLine: '℗ 2025 Moonlit Records',
      pro: '',
      ipi: '',
      iswc: '',
      isni: '',
    },
  },
  stores: ['spotify'],
  createdAt: '2026-08-01T10:00:00Z',
  artwork: { bucket: 'b', fileKey: 'art' },
  warnings: [],
  ...over,
});

const files: PackageFiles = {
  audio: new Map([['t1', staged('a')]]),
  cover: staged('c'),
  coverFacts: { format: 'png', width: 3000, height: 3000 },
};

test('the ℗ and © lines are told apart by their symbol, whichever field holds them', () => {
  const ern = ernRelease(release(), files, '2026-09-01');
  expect(ern.pLine).toEqual({ year: 2025, text: '2025 Moonlit Records' });
  expect(ern.cLine).toEqual({ year: 2026, text: '2026 Nova Reyes' });
  expect(ern.recordings[0]!.pLine).toEqual(ern.pLine);
});

test('the release’s featured artists, remixers and language reach the release and every recording, and validate', async () => {
  const ern = ernRelease(
    release({
      featuredArtists: [
        { name: 'Kai Stone', role: 'featured' },
        { name: 'DJ Vale', role: 'remixer' },
      ],
      language: 'fr',
    }),
    files,
    '2026-09-01',
  );
  expect(ern.artists).toEqual([
    { name: 'Nova Reyes', role: 'MainArtist' },
    { name: 'Kai Stone', role: 'FeaturedArtist' },
  ]);
  expect(ern.language).toBe('fr');
  const [recording] = ern.recordings;
  expect(recording?.artists).toContainEqual({ name: 'Kai Stone', role: 'FeaturedArtist' });
  expect(recording?.contributors).toContainEqual(
    expect.objectContaining({ name: 'DJ Vale', roles: ['Remixer'] }),
  );
  expect(recording?.language).toBe('fr');
  const validator = createErnValidator();
  try {
    const xml = buildNewReleaseMessage({
      header: singleInput().header,
      release: ern,
      deals: singleInput().deals,
    });
    expect(xml).toContain('<Release LanguageAndScriptCode="fr">');
    expect(xml).toContain('<LanguageOfPerformance>fr</LanguageOfPerformance>');
    expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
  } finally {
    await validator.close();
  }
});

test('resources are named <upc>_<id>_<type>.<ext> under resources/, with the staged hash and size', () => {
  const ern = ernRelease(release(), files, '2026-09-01');
  expect(ern.recordings[0]!.audio).toMatchObject({
    codec: 'PCM',
    sampleRateHz: 44100,
    bitsPerSample: 24,
    channels: 2,
    file: { uri: 'resources/196000000012_QZES72600001_SoundRecording.wav', sizeBytes: 10 },
  });
  expect(ern.recordings[0]!.durationSeconds).toBe(195);
  expect(ern.cover.file.uri).toBe('resources/196000000012_196000000012_Image.png');
  expect(ern).toMatchObject({ type: 'Single', explicit: true, releaseDate: '2026-09-01' });
});

test('the deal starts on the release date, or on the day the store first got a dateless release', () => {
  expect(dealStart(release(), '2026-11-24T03:00:00Z')).toBe('2026-09-01');
  expect(dealStart(release({ releaseDate: '' }), '2026-11-20T23:59:00Z')).toBe('2026-11-20');
});

test('a master in a format no store takes is a packaging error, not a message', () => {
  const mp3 = release();
  mp3.tracks[0]!.audioFormat = { format: 'mp3', sampleRate: 44100, bitDepth: 0, channels: 2 };
  expect(() => ernRelease(mp3, files, '2026-09-01')).toThrow(PackageError);
});

test('batch ids are YYYYMMDDhhmmssnnn and only grow, even within one millisecond', () => {
  const at = Date.parse('2026-11-24T03:00:00.123Z');
  const a = nextBatchId(at);
  const b = nextBatchId(at);
  expect(a).toMatch(/^\d{17}$/);
  expect(a).toBe('20261124030000123');
  expect(b > a).toBe(true);
});
