// The artist upload form's rules (spec §5) as catalog applies them to a CreateRelease request: required
// text first, then both files, then the rest, each with the message the form shows.
import { catalog } from '@omni/proto';
import { DEFAULT_GENRE } from '../src/domain/release';
import { InputError, isCalendarDate, MESSAGES, parseReleaseInput } from '../src/domain/release-input';

const valid = (over: Parameters<typeof catalog.CreateReleaseRequest.fromPartial>[0] = {}) =>
  catalog.CreateReleaseRequest.fromPartial({
    ownerId: 'u1',
    artistName: '  Ada  ',
    releaseTitle: 'First',
    trackTitle: 'First',
    audio: { bucket: 'omni-assets', fileKey: ' u1/a.wav ' },
    artwork: { bucket: 'omni-assets', fileKey: 'u1/c.png' },
    stores: [' spotify ', '', 'apple_music'],
    ...over,
  });

const refusal = (req: catalog.CreateReleaseRequest) => {
  try {
    parseReleaseInput(req);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('parseReleaseInput', () => {
  it('trims what was typed and fills the defaults', () => {
    const input = parseReleaseInput(valid());
    expect(input.artistName).toBe('Ada');
    expect(input.releaseType).toBe('single');
    expect(input.genre).toBe(DEFAULT_GENRE);
    expect(input.releaseDate).toBeNull();
    expect(input.audio).toEqual({ bucket: 'omni-assets', fileKey: 'u1/a.wav' });
    expect(input.stores).toEqual(['spotify', 'apple_music']);
  });

  it('takes a pre-order before the release date and a release time zone, and says what is wrong with others', () => {
    const input = parseReleaseInput(
      valid({ releaseDate: '2027-01-15', preOrderDate: '2026-12-01', releaseTimeZone: ' America/New_York ' }),
    );
    expect(input.preOrderDate).toBe('2026-12-01');
    expect(input.releaseTimeZone).toBe('America/New_York');
    expect(parseReleaseInput(valid()).preOrderDate).toBeNull();
    expect(refusal(valid({ preOrderDate: '2026-12-01' }))).toBe(MESSAGES.preOrderNeedsDate);
    expect(refusal(valid({ releaseDate: '2027-01-15', preOrderDate: '2027-01-15' }))).toBe(
      MESSAGES.preOrderOrder,
    );
    expect(refusal(valid({ releaseDate: '2027-01-15', preOrderDate: '2026-02-30' }))).toBe(
      'Pre-order date must be a real date written as YYYY-MM-DD.',
    );
    for (const zone of ['Mars/Olympus', 'EST5EDT; rm -rf', 'not a zone'])
      expect(refusal(valid({ releaseTimeZone: zone }))).toBe(MESSAGES.timeZone);
  });

  it('takes the release’s featured artists and language, and refuses a language no one speaks', () => {
    const input = parseReleaseInput(
      valid({
        featuredArtists: [
          { name: ' Kai Stone ', role: '' },
          { name: '', role: 'featured' },
        ],
        language: 'FR',
      }),
    );
    expect(input.featuredArtists).toEqual([{ name: 'Kai Stone', role: 'featured' }]);
    expect(input.language).toBe('fr');
    expect(refusal(valid({ language: 'xx' }))).toBe(MESSAGES.language);
    expect(refusal(valid({ featuredArtists: [{ name: 'Kai', role: 'drummer' }] }))).toBe(MESSAGES.artistRole);
  });

  it('asks for the required fields before the files', () => {
    expect(refusal(valid({ trackTitle: '   ', audio: undefined }))).toBe(MESSAGES.required);
    expect(refusal(valid({ artwork: { bucket: 'omni-assets', fileKey: '' } }))).toBe(MESSAGES.files);
  });

  it('refuses an unknown release type, an impossible date and an absurd BPM', () => {
    expect(refusal(valid({ releaseType: 'mixtape' }))).toBe('Release type must be single, ep or album.');
    expect(refusal(valid({ releaseDate: '2026-02-30' }))).toBe(
      'Release date must be a real date written as YYYY-MM-DD.',
    );
    expect(refusal(valid({ metadata: { technical: { bpm: 0 } } }))).toBe('BPM must be between 1 and 999.');
    expect(refusal(valid({ metadata: { technical: { recordingDate: '31/12/2025' } } }))).toBe(
      'Date of recording must be a real date written as YYYY-MM-DD.',
    );
  });

  it('bounds long text so one field cannot fill the store', () => {
    const input = parseReleaseInput(
      valid({ releaseTitle: 'x'.repeat(1000), metadata: { content: { lyrics: 'la '.repeat(10_000) } } }),
    );
    expect(input.releaseTitle).toHaveLength(200);
    expect(input.metadata.content.lyrics.length).toBeLessThanOrEqual(20_000);
  });
});

describe('isCalendarDate', () => {
  it('accepts real days only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2025-02-29')).toBe(false);
    expect(isCalendarDate('2025-1-01')).toBe(false);
  });
});
