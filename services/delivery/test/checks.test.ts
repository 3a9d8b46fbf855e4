// The automatic store checks, rule by rule, on catalog releases built here (pure functions: no services).
import { catalog } from '@omni/proto';
import type { ReviewFinding } from '@omni/proto/api';
import { type CoverFacts, runStoreChecks } from '../src/domain/checks';
import { refusedEverywhere } from '../src/use-cases/review-release';

const GOOD_COVER: CoverFacts = { width: 3000, height: 3000, colorMode: 'rgb', format: 'png' };
const STORES = ['spotify', 'apple_music', 'amazon_music', 'beatport', 'soundcloud'];

function release(
  over: Partial<catalog.Release> = {},
  track: Partial<catalog.Track> = {},
  audio: Partial<catalog.AudioFormat> = {},
): catalog.Release {
  return catalog.Release.fromPartial({
    id: 'r1',
    ownerId: 'u1',
    title: 'Night Drive',
    releaseType: 'single',
    genre: 'Electronic',
    label: 'Moonlit Records',
    artist: { id: 'a1', name: 'Nova Reyes' },
    stores: STORES,
    ...over,
    tracks: [
      {
        id: 't1',
        trackNumber: 1,
        title: over.title ?? 'Night Drive',
        durationSeconds: 187,
        explicit: false,
        audioFormat: { format: 'wav', sampleRate: 44_100, bitDepth: 24, channels: 2, ...audio },
        ...track,
      },
    ],
  });
}

function check(r: catalog.Release, cover: CoverFacts | null = GOOD_COVER, stores = STORES): ReviewFinding[] {
  return runStoreChecks({ release: r, stores, cover });
}
const rules = (findings: ReviewFinding[]) => findings.map((f) => `${f.rule}:${f.severity}`);
const only = (findings: ReviewFinding[], rule: string) => findings.filter((f) => f.rule === rule);

it('finds nothing wrong with a clean release', () => {
  expect(check(release())).toEqual([]);
});

describe('audio', () => {
  it('refuses a lossy master for every store, saying what to export', () => {
    const [finding] = only(check(release({}, {}, { format: 'mp3', bitDepth: 0 })), 'audio.format');
    expect(finding).toMatchObject({ severity: 'error', stores: [] });
    expect(finding?.message).toMatch(/MP3\. Export it as WAV or FLAC/);
  });
  it('refuses a sample rate under 44.1 kHz', () => {
    expect(only(check(release({}, {}, { sampleRate: 22_050 })), 'audio.sample-rate')[0]?.message).toMatch(
      /22\.05 kHz/,
    );
  });
  it('refuses a bit depth other than 16 or 24', () => {
    expect(rules(check(release({}, {}, { bitDepth: 32 })))).toEqual(['audio.bit-depth:error']);
    expect(check(release({}, {}, { bitDepth: 16 }))).toEqual([]);
  });
  it('refuses more than two channels', () => {
    expect(rules(check(release({}, {}, { channels: 6 })))).toEqual(['audio.channels:error']);
  });
  it('warns about a mono master naming only the chosen DJ stores that refuse it', () => {
    const [finding] = check(release({}, {}, { channels: 1 }));
    expect(finding).toMatchObject({ rule: 'audio.mono', severity: 'warning', stores: ['beatport'] });
    expect(finding?.message).toMatch(/\(Beatport\)/);
    // No DJ store chosen: nobody refuses it.
    expect(check(release({}, {}, { channels: 1 }), GOOD_COVER, ['spotify'])).toEqual([]);
  });
  it('refuses a master whose format nobody recorded', () => {
    const r = release();
    r.tracks[0]!.audioFormat = undefined;
    expect(rules(check(r))).toEqual(['audio.unknown:error']);
  });
  it('warns about a single under 30 s, naming the stores that refuse it', () => {
    const [finding] = check(release({}, { durationSeconds: 21.4 }));
    expect(finding).toMatchObject({
      rule: 'audio.short-single',
      severity: 'warning',
      stores: ['apple_music', 'amazon_music'],
    });
    expect(finding?.message).toMatch(/21 s long.*Apple Music, Amazon Music/);
    expect(check(release({}, { durationSeconds: 30 }))).toEqual([]);
  });
});

describe('artwork', () => {
  const cover = (over: Partial<CoverFacts>) => check(release(), { ...GOOD_COVER, ...over });
  it('refuses a cover that is not square', () => {
    expect(rules(cover({ width: 3000, height: 3200 }))).toEqual(['artwork.square:error']);
  });
  it('refuses a cover under 3000x3000', () => {
    expect(rules(cover({ width: 1400, height: 1400 }))).toEqual(['artwork.size:error']);
  });
  it('refuses a cover that is neither JPEG nor PNG', () => {
    expect(rules(cover({ format: 'webp' }))).toEqual(['artwork.format:error']);
    expect(cover({ format: 'jpg' })).toEqual([]);
  });
  it.each(['cmyk', 'grayscale', 'rgba'])('refuses a %s cover', (colorMode) => {
    const [finding] = cover({ colorMode });
    expect(finding).toMatchObject({ rule: 'artwork.color-mode', severity: 'error', stores: [] });
  });
  it('refuses a release without a readable cover', () => {
    expect(rules(check(release(), null))).toEqual(['artwork.missing:error']);
  });
});

describe('titles', () => {
  it.each([
    'Night Drive (feat. Kai Long)',
    'Night Drive ft. Kai',
    'Night Drive featuring Kai',
    'Night Drive (prod. Kai Long)',
  ])('refuses "%s" for the stores that want artists in their own fields', (title) => {
    const [finding] = only(check(release({ title })), 'title.credits');
    expect(finding).toMatchObject({
      severity: 'error',
      stores: ['spotify', 'apple_music', 'amazon_music'],
    });
    expect(finding?.message).toMatch(/own field/);
  });
  it('does not mistake words that merely contain the letters for credits', () => {
    expect(check(release({ title: 'Defeat the Feature' }))).toEqual([]);
    expect(check(release({ title: 'Soft. Light' }))).toEqual([]);
  });
  it.each([
    'My Song (Official Video)',
    'My Song - Exclusive',
    'My Song [Free Download]',
    'My Song www.mysong.com',
    'My Song only $0.99',
  ])('refuses marketing in "%s" for every store', (title) => {
    expect(only(check(release({ title })), 'title.marketing')[0]).toMatchObject({
      severity: 'error',
      stores: [],
    });
  });
  it('lets a song simply called "Official" or "Exclusive" through', () => {
    expect(check(release({ title: 'Official' }))).toEqual([]);
    expect(check(release({ title: 'Exclusive' }))).toEqual([]);
  });
  it('warns about all capitals and all lower case, not about short or mixed titles', () => {
    expect(rules(check(release({ title: 'NIGHT DRIVE' })))).toEqual(['title.casing:warning']);
    expect(only(check(release({ title: 'night drive' })), 'title.casing')[0]?.message).toMatch(/lower case/);
    expect(check(release({ title: 'DNA' }))).toEqual([]);
    expect(check(release({ title: 'Night DRIVE' }))).toEqual([]);
  });
  it('checks each track title besides the release title', () => {
    const found = check(release({ title: 'Night Drive' }, { title: 'Night Drive (Official Audio)' }));
    expect(rules(found)).toEqual(['title.marketing:error']);
  });
});

describe('explicit flag', () => {
  it('refuses a title saying explicit on a track not marked explicit', () => {
    expect(rules(check(release({}, { title: 'Night Drive (Explicit)', explicit: false })))).toEqual([
      'explicit.flag:error',
    ]);
    expect(check(release({}, { title: 'Night Drive (Explicit)', explicit: true }))).toEqual([]);
  });
  it('refuses a title saying clean on a track marked explicit, not a song called Clean', () => {
    expect(rules(check(release({}, { title: 'Night Drive (Clean Version)', explicit: true })))).toEqual([
      'explicit.flag:error',
    ]);
    expect(check(release({ title: 'Clean' }, { explicit: true }))).toEqual([]);
  });
});

describe('label credited as an artist', () => {
  it('refuses an artist field naming the label beside an artist', () => {
    const [finding] = check(release({ artist: { id: 'a1', name: 'Nova Reyes & Moonlit Records' } }));
    expect(finding).toMatchObject({ rule: 'artist.label', severity: 'error', stores: [] });
    expect(finding?.message).toMatch(/"Moonlit Records"/);
  });
  it('accepts a self-released artist whose label carries the artist name', () => {
    expect(check(release({ label: 'Nova Reyes' }))).toEqual([]);
  });
  it('accepts several artists none of whom is the label', () => {
    expect(check(release({ artist: { id: 'a1', name: 'Nova Reyes & Kai Long' } }))).toEqual([]);
  });
});

it('refuses an empty genre', () => {
  expect(rules(check(release({ genre: ' ' })))).toEqual(['genre.empty:error']);
});

describe('automatic rejection', () => {
  const error = (stores: string[]): ReviewFinding => ({ rule: 'x', severity: 'error', stores, message: '' });
  it('rejects when an error concerns every store, or when each store has one', () => {
    expect(refusedEverywhere([error([])], ['spotify'])).toBe(true);
    expect(refusedEverywhere([error(['spotify']), error(['tidal'])], ['spotify', 'tidal'])).toBe(true);
  });
  it('waits for a person when some store would still take it, or when findings are warnings', () => {
    expect(refusedEverywhere([error(['spotify'])], ['spotify', 'soundcloud'])).toBe(false);
    expect(refusedEverywhere([{ ...error([]), severity: 'warning' }], ['spotify'])).toBe(false);
  });
});
