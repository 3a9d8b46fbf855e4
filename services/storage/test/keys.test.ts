// Object keys from names a person typed (spec §3 storage paths): no name climbs out of its folder, hides
// itself or breaks a URL, whitespace becomes '_', and each purpose gets its own path shape.
import { buildKey, sanitiseFolder, sanitiseSegment } from '../src/domain/keys';

const now = new Date('2026-03-04T10:00:00Z');

describe('sanitiseSegment', () => {
  it('keeps only the last path component and drops what is hostile in a URL', () => {
    expect(sanitiseSegment('C:\\Users\\me\\take one.wav')).toBe('take_one.wav');
    expect(sanitiseSegment('../../etc/passwd')).toBe('passwd');
    expect(sanitiseSegment('mix#1?final%.wav')).toBe('mix1final.wav');
  });

  it('never yields a hidden or empty name', () => {
    expect(sanitiseSegment('.htaccess')).toBe('htaccess');
    expect(sanitiseSegment('..')).toBe('file');
    expect(sanitiseSegment('   ', 'anon')).toBe('anon');
  });

  it('bounds long names and keeps the extension', () => {
    const name = sanitiseSegment(`${'a'.repeat(300)}.flac`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(120);
    expect(name.endsWith('.flac')).toBe(true);
  });
});

describe('sanitiseFolder', () => {
  it('drops . and .. parts and limits the depth', () => {
    expect(sanitiseFolder('../../etc')).toEqual(['etc']);
    expect(sanitiseFolder('mixes/final v2')).toEqual(['mixes', 'final_v2']);
    expect(sanitiseFolder('a/b/c/d/e/f')).toEqual(['a', 'b', 'c', 'd']);
    expect(sanitiseFolder(undefined)).toEqual([]);
  });
});

describe('buildKey', () => {
  it('puts a song submission under the day with its title', () => {
    const key = buildKey({
      purpose: 'song-submission',
      ownerId: 'u1',
      fileName: 'take.wav',
      title: 'My Song',
      now,
    });
    expect(key).toBe('u1/20260304/My_Song-take.wav');
  });

  it('numbers a retry so a taken key is never overwritten', () => {
    const input = {
      purpose: 'contributor' as const,
      ownerId: 'u1',
      fileName: 'take.wav',
      folder: 'demos',
      now,
    };
    expect(buildKey(input)).toBe('u1/20260304/demos/take.wav');
    expect(buildKey(input, 1)).toBe('u1/20260304/demos/take-2.wav');
  });

  it('makes console keys unique with a uuid, under the day when a folder is given', () => {
    const plain = buildKey({ purpose: 'console', ownerId: 'u1', fileName: 'cover.png', now });
    expect(plain).toMatch(/^u1\/[0-9a-f-]{36}_cover\.png$/);
    const inFolder = buildKey({
      purpose: 'console',
      ownerId: 'u1',
      fileName: 'cover.png',
      folder: 'art',
      now,
    });
    expect(inFolder).toMatch(/^u1\/20260304\/art\/[0-9a-f-]{36}_cover\.png$/);
  });

  it('keeps an owner id from naming another folder', () => {
    expect(buildKey({ purpose: 'contributor', ownerId: '../other', fileName: 'x.wav', now })).toBe(
      'other/20260304/x.wav',
    );
  });
});
