// The release builder's tracks: titles from file names, moving and checking tracks, and uploads that send
// each master once — a failed one alone on the next try — and a request that lists the tracks in order.
import {
  moveTrack,
  newTrack,
  type TrackDraft,
  titleFromFileName,
  tracksProblem,
  tracksRequest,
  type UploadState,
  uploadMasters,
} from '../src/lib/album-upload';
import type { UploadFileOptions } from '../src/lib/upload';

const file = (name: string) => new File([new Uint8Array(10)], name, { type: 'audio/wav' });

describe('release builder tracks', () => {
  it('starts a title from the file name without its number, separators or extension', () => {
    expect(titleFromFileName('03 - Night Drive.wav')).toBe('Night Drive');
    expect(titleFromFileName('12_Sun_Up.flac')).toBe('Sun Up');
    expect(titleFromFileName('Intro.wav')).toBe('Intro');
  });

  it('moves a track up or down, and leaves the list as it is at either end', () => {
    expect(moveTrack(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveTrack(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveTrack(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
  });

  it('names the first track to fix before anything is sent', () => {
    const ok = newTrack(file('a.wav'));
    const untitled = { ...newTrack(file('b.wav')), title: ' ' };
    const lossy = {
      ...newTrack(file('c.mp3')),
      problems: ['MP3 is not accepted: upload the lossless master.'],
    };
    expect(tracksProblem([ok])).toBeNull();
    expect(tracksProblem([ok, untitled])).toBe('Track 2 needs a title.');
    expect(tracksProblem([ok, lossy])).toBe(
      'Track 2 (c.mp3): MP3 is not accepted: upload the lossless master.',
    );
  });

  it('uploads each master once: a failed one is marked, and the next try sends it alone', async () => {
    const tracks: TrackDraft[] = ['One', 'Two', 'Three', 'Four'].map((t) => newTrack(file(`${t}.wav`), t));
    const sent: string[] = [];
    let failTwo = true;
    const uploadFile = async (o: UploadFileOptions) => {
      sent.push(o.file.name);
      o.onProgress?.({ loaded: 5, total: 10, percent: 50 });
      if (o.file.name === 'Two.wav' && failTwo) {
        failTwo = false;
        throw new Error('The connection dropped.');
      }
      return { bucket: 'omni-assets', fileKey: `k/${o.file.name}`, publicUrl: '', inspection: {} };
    };
    const states: Array<[string, UploadState['state']]> = [];
    const first = await uploadMasters(tracks, (key, s) => states.push([key, s.state]), { uploadFile }, 2);
    expect([...first.values()].map((s) => s.state)).toEqual(['done', 'failed', 'done', 'done']);
    expect(sent.sort()).toEqual(['Four.wav', 'One.wav', 'Three.wav', 'Two.wav']);
    expect(() => tracksRequest(tracks, first)).toThrow('Track "Two" is not uploaded yet.');

    const retried = tracks.map((t) => ({ ...t, upload: first.get(t.key)! }));
    sent.length = 0;
    const second = await uploadMasters(retried, () => undefined, { uploadFile });
    expect(sent).toEqual(['Two.wav']);
    expect(tracksRequest(retried, second).map((t) => [t.title, t.audio.fileKey])).toEqual([
      ['One', 'k/One.wav'],
      ['Two', 'k/Two.wav'],
      ['Three', 'k/Three.wav'],
      ['Four', 'k/Four.wav'],
    ]);
  });
});
