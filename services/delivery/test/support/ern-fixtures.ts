// Release inputs for the ERN builder tests: a clean single and a two-track explicit EP.
import type { ErnNewReleaseInput, ErnSoundRecording } from '../../src/domain/ddex';

const sha256 = (seed: string) => seed.repeat(64).slice(0, 64);

const header: ErnNewReleaseInput['header'] = {
  messageId: 'omni-20261124-0001',
  threadId: 'rel-1',
  sender: { partyId: 'PADPIDA2026112401O', name: 'Omni Distribution' },
  recipient: { partyId: 'PADPIDA2011072101T', name: 'Example Store' },
  createdAt: '2026-11-24T01:30:00Z',
};

const track = (n: number, over: Partial<ErnSoundRecording> = {}): ErnSoundRecording => ({
  isrc: `QZES72600${String(n).padStart(3, '0')}`,
  title: `Night Drive ${n}`,
  artists: [{ name: 'Luna Vega', role: 'MainArtist' }],
  contributors: [
    { name: 'Luna Vega', roles: ['ComposerLyricist'] },
    { name: 'Sam Reed', roles: ['StudioProducer', 'MixingEngineer'] },
  ],
  durationSeconds: 195,
  pLine: { year: 2026, text: '2026 Night Owl Records' },
  explicit: false,
  audio: {
    codec: 'FLAC',
    sampleRateHz: 44100,
    bitsPerSample: 24,
    channels: 2,
    file: {
      uri: `resources/196000000012_T${n}_SoundRecording.flac`,
      hash: { algorithm: 'SHA-256', value: sha256(String(n)) },
      sizeBytes: 31_457_280,
    },
  },
  ...over,
});

export function singleInput(): ErnNewReleaseInput {
  return {
    header,
    release: {
      upc: '196000000012',
      type: 'Single',
      title: 'Night Drive 1',
      artists: [{ name: 'Luna Vega', role: 'MainArtist' }],
      label: 'Night Owl Records',
      genre: 'Electronic',
      pLine: { year: 2026, text: '2026 Night Owl Records' },
      cLine: { year: 2026, text: '2026 Night Owl Records' },
      releaseDate: '2026-12-04',
      explicit: false,
      recordings: [track(1)],
      cover: {
        proprietaryId: 'art-196000000012',
        codec: 'JPEG',
        widthPx: 3000,
        heightPx: 3000,
        file: {
          uri: 'resources/196000000012_T2_Image.jpg',
          hash: { algorithm: 'SHA-256', value: sha256('c') },
          sizeBytes: 2_100_000,
        },
      },
    },
    deals: [
      {
        territories: ['Worldwide'],
        commercialModels: ['SubscriptionModel', 'AdvertisementSupportedModel'],
        useTypes: ['OnDemandStream', 'NonInteractiveStream'],
        startDate: '2026-12-04',
      },
      {
        territories: ['Worldwide'],
        commercialModels: ['PayAsYouGoModel'],
        useTypes: ['PermanentDownload'],
        startDate: '2026-12-04',
      },
    ],
  };
}

/** A two-track EP where one track is explicit and the second features another artist. */
export function explicitInput(): ErnNewReleaseInput {
  const base = singleInput();
  return {
    ...base,
    release: {
      ...base.release,
      type: 'EP',
      title: 'After Hours',
      explicit: false,
      recordings: [
        track(1, { explicit: true }),
        track(2, {
          artists: [
            { name: 'Luna Vega', role: 'MainArtist' },
            { name: 'Kai Stone', role: 'FeaturedArtist' },
          ],
          audio: {
            codec: 'PCM',
            sampleRateHz: 48000,
            bitsPerSample: 16,
            channels: 2,
            file: {
              uri: 'resources/196000000012_T2_SoundRecording.wav',
              hash: { algorithm: 'MD5', value: 'd41d8cd98f00b204e9800998ecf8427e' },
            },
          },
        }),
      ],
    },
    deals: [
      {
        territories: ['US', 'CA', 'GB'],
        commercialModels: ['SubscriptionModel'],
        useTypes: ['OnDemandStream'],
        startDate: '2026-12-04',
      },
    ],
  };
}

/**
 * A 12-track album on two discs (7 + 5): two tracks feature other artists, one is a remix, track 9 is
 * explicit, and each track has its own writers.
 */
export function albumInput(): ErnNewReleaseInput {
  const base = singleInput();
  const recordings = Array.from({ length: 12 }, (_, i) => {
    const n = i + 1;
    const over: Partial<ErnSoundRecording> = {
      title: `Album Track ${n}`,
      discNumber: n <= 7 ? 1 : 2,
      contributors: [
        { name: `Writer ${n}`, roles: ['ComposerLyricist'] },
        { name: 'Sam Reed', roles: ['StudioProducer'] },
        ...(n === 11 ? [{ name: 'DJ Nova', roles: ['Remixer' as const] }] : []),
      ],
      explicit: n === 9,
    };
    if (n === 3 || n === 8)
      over.artists = [
        { name: 'Luna Vega', role: 'MainArtist' },
        { name: n === 3 ? 'Kai Stone' : 'Mira Sol', role: 'FeaturedArtist' },
      ];
    return track(n, over);
  });
  return {
    ...base,
    release: {
      ...base.release,
      type: 'Album',
      title: 'Long Way Home',
      recordings,
      cover: {
        ...base.release.cover,
        file: { ...base.release.cover.file, uri: 'resources/196000000012_T13_Image.jpg' },
      },
    },
  };
}
