// What a version says changed: release fields, metadata fields by the form's names, and track by track.
import { changesBetween, type ReleaseSnapshot } from '../src/domain/versions';

const track = (n: number, title: string) => ({
  trackNumber: n,
  discNumber: 1,
  title,
  isrc: `QZABC26000${n}`,
  explicit: false,
  durationSeconds: 120,
  audio: { bucket: 'b', fileKey: `t${n}.wav` },
  audioFormat: { format: 'wav', sampleRate: 44100, bitDepth: 16, channels: 2 },
  lyrics: '',
  language: '',
  credits: null,
  featuredArtists: [] as Array<{ name: string; role: string }>,
});

const base = (): ReleaseSnapshot => ({
  artistName: 'A',
  title: 'T',
  releaseType: 'ep',
  genre: 'Pop',
  label: '',
  releaseDate: null,
  upc: '123',
  artwork: null,
  stores: ['spotify'],
  metadata: {
    credits: { producers: [], writers: [], musicians: [], engineer: '', instruments: '' },
    technical: {
      bpm: null,
      musicalKey: '',
      style: '',
      mood: '',
      recordedIn: '',
      masteringStudio: '',
      recordingDate: '',
    },
    legal: { copyrightLine: '', publishingLine: '', pro: '', ipi: '', iswc: '', isni: '' },
    content: { summary: '', lyrics: '' },
  },
  tracks: [track(1, 'One'), track(2, 'Two')],
});

describe('changesBetween', () => {
  it('names each change as the artist reads it, release first, then track by track', () => {
    const after = base();
    after.title = 'T (Deluxe)';
    after.metadata.credits.writers = ['Ana Diaz', 'Sam Reed'];
    after.metadata.technical.bpm = 120;
    after.tracks[1]!.title = 'Two (Live)';
    after.tracks[1]!.explicit = true;
    after.tracks[0]!.featuredArtists = [{ name: 'Kai', role: 'remixer' }];
    expect(changesBetween(base(), after)).toEqual([
      { field: 'title', label: 'Release title', before: 'T', after: 'T (Deluxe)' },
      {
        field: 'metadata.credits.writers',
        label: 'Credits: Writers',
        before: '',
        after: 'Ana Diaz, Sam Reed',
      },
      { field: 'metadata.technical.bpm', label: 'Technical details: BPM', before: '', after: '120' },
      {
        field: 'tracks.1.featuredArtists',
        label: 'Track 1 featured artists',
        before: '',
        after: 'Kai (remixer)',
      },
      { field: 'tracks.2.title', label: 'Track 2 title', before: 'Two', after: 'Two (Live)' },
      { field: 'tracks.2.explicit', label: 'Track 2 explicit flag', before: 'no', after: 'yes' },
    ]);
  });

  it('finds nothing between equal snapshots, and nothing for a first version', () => {
    expect(changesBetween(base(), base())).toEqual([]);
    expect(changesBetween(null, base())).toEqual([]);
  });
});
