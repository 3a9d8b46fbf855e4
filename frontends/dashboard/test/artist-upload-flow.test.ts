import { emptyArtistForm, splitList, toCreateReleaseRequest } from '../src/lib/artist-form';
import { checkArtistUpload, type FlowDeps, PROGRESS, runArtistUpload } from '../src/lib/artist-upload-flow';
import type { CreateReleaseRequest, Release } from '../src/lib/releases-api';
import type { UploadFileOptions } from '../src/lib/upload';

const file = (name: string, size: number) => ({ name, size, type: '' }) as unknown as File;

const release: Release = {
  id: 'rel-1',
  title: 'T',
  releaseType: 'single',
  genre: 'Hip-Hop/Rap',
  label: null,
  releaseDate: null,
  status: 'queued',
  upc: '8999991234567',
  artworkUrl: '',
  artist: { id: 'a1', name: 'Artist' },
  tracks: [
    {
      id: 't1',
      trackNumber: 1,
      title: 'T',
      isrc: 'QZQDU2500001',
      durationSeconds: 3,
      explicit: false,
      audioUrl: '',
    },
  ],
  metadata: { credits: {}, technical: {}, legal: {}, content: {} },
  delivery: { total: 0, byStatus: {}, jobs: [], unavailable: false },
  createdAt: '',
  warnings: [],
};

function filled() {
  return {
    ...emptyArtistForm(),
    artistName: ' Artist ',
    releaseTitle: 'T',
    trackTitle: 'T1',
    producers: 'a, b,, c ',
    bpm: '92',
  };
}

describe('checkArtistUpload (spec section 5, in order)', () => {
  const files = { audio: file('a.wav', 1), artwork: file('c.png', 1) };
  it('asks for sign-in first, then the fields, then the files', () => {
    expect(checkArtistUpload(false, filled(), files)?.title).toBe('Authentication Required');
    expect(checkArtistUpload(true, emptyArtistForm(), files)).toEqual({
      title: 'Missing Fields',
      description: 'Please fill in all required fields.',
    });
    expect(checkArtistUpload(true, filled(), { audio: null, artwork: files.artwork })).toEqual({
      title: 'Missing Files',
      description: 'Please add both audio and artwork files.',
    });
    expect(checkArtistUpload(true, filled(), files)).toBeNull();
  });
});

describe('toCreateReleaseRequest', () => {
  it('splits comma lists, parses bpm, trims, defaults the genre and omits blanks', () => {
    const body = toCreateReleaseRequest(
      { ...filled(), genre: '' },
      { audio: { bucket: 'b', fileKey: 'a' }, artwork: { bucket: 'b', fileKey: 'c' } },
      ['spotify'],
    );
    expect(body.artistName).toBe('Artist');
    expect(body.genre).toBe('Hip-Hop/Rap');
    expect(body.credits).toEqual({ producers: ['a', 'b', 'c'] });
    expect(body.technical).toEqual({ bpm: 92 });
    expect(body.legal).toEqual({});
    expect('label' in body).toBe(false);
    expect(body.stores).toEqual(['spotify']);
    expect(splitList(' , ')).toBeUndefined();
  });
});

describe('runArtistUpload', () => {
  it('moves through 10, 20, 40, 60, 70, 85, 100 with one log line each, bytes in between', async () => {
    const percents: number[] = [];
    const log: string[] = [];
    let sent: CreateReleaseRequest | null = null;
    const deps: FlowDeps = {
      async uploadFile(options: UploadFileOptions) {
        options.onSigned?.({
          signedUrl: '/x',
          fileKey: `key-${options.role}`,
          bucket: 'omni-assets',
          headers: {},
        });
        options.onProgress?.({ loaded: 50, total: 100, percent: 50 });
        return { bucket: 'omni-assets', fileKey: `key-${options.role}`, publicUrl: '', inspection: {} };
      },
      async createRelease(request) {
        sent = request;
        return release;
      },
    };
    const result = await runArtistUpload(
      {
        values: filled(),
        audio: file('a.wav', 10),
        artwork: file('c.png', 10),
        stores: [],
        platformCount: 142,
      },
      { progress: (p) => percents.push(p), log: (l) => log.push(l), bytes: () => undefined },
      deps,
    );
    expect(result).toBe(release);
    expect(percents).toEqual([10, 20, 30, 40, 60, 65, 70, 85, 100]);
    expect(Object.values(PROGRESS).every((mark) => percents.includes(mark))).toBe(true);
    expect(log).toHaveLength(7);
    expect(log[5]).toContain('QZQDU2500001');
    expect(log[6]).toBe('No platform chosen: delivery queued to all 142 platforms');
    expect(sent).toMatchObject({
      audio: { fileKey: 'key-audio' },
      artwork: { fileKey: 'key-artwork' },
      stores: [],
    });
  });

  it('stops at the failing step and lets the error through (the page shows it)', async () => {
    const percents: number[] = [];
    const deps: FlowDeps = {
      uploadFile: async () => {
        throw new Error('Cover art must be at least 3000x3000 pixels; this image is 1200x1200.');
      },
      createRelease: async () => release,
    };
    await expect(
      runArtistUpload(
        {
          values: filled(),
          audio: file('a.wav', 1),
          artwork: file('c.png', 1),
          stores: ['x'],
          platformCount: 142,
        },
        { progress: (p) => percents.push(p), log: () => undefined, bytes: () => undefined },
        deps,
      ),
    ).rejects.toThrow('3000x3000');
    expect(percents).toEqual([10]);
  });

  it('discards the artwork it uploaded when the master is then refused, and nothing after a release (§3.7)', async () => {
    const discarded: string[] = [];
    const deps: FlowDeps = {
      async uploadFile(options: UploadFileOptions) {
        if (options.role === 'audio') throw new Error('This file is a video; upload an audio file instead.');
        return { bucket: 'omni-assets', fileKey: 'key-artwork', publicUrl: '', inspection: {} };
      },
      createRelease: async () => release,
      async discardUpload(f) {
        discarded.push(f.fileKey);
      },
    };
    const input = {
      values: filled(),
      audio: file('a.wav', 1),
      artwork: file('c.png', 1),
      stores: [],
      platformCount: 142,
    };
    const quiet = { progress: () => undefined, log: () => undefined, bytes: () => undefined };
    await expect(runArtistUpload(input, quiet, deps)).rejects.toThrow('upload an audio file');
    expect(discarded).toEqual(['key-artwork']);

    // Refused at the release (or an outage): both files go; a discard that fails does not hide the error.
    discarded.length = 0;
    deps.uploadFile = async (options: UploadFileOptions) => ({
      bucket: 'omni-assets',
      fileKey: `key-${options.role}`,
      publicUrl: '',
      inspection: {},
    });
    deps.createRelease = async () => {
      throw new Error('Unknown store "x".');
    };
    deps.discardUpload = async (f) => {
      discarded.push(f.fileKey);
      throw new Error('network down');
    };
    await expect(runArtistUpload(input, quiet, deps)).rejects.toThrow('Unknown store');
    expect(discarded).toEqual(['key-artwork', 'key-audio']);

    // A release made: nothing is discarded.
    discarded.length = 0;
    deps.createRelease = async () => release;
    await runArtistUpload(input, quiet, deps);
    expect(discarded).toEqual([]);
  });
});
