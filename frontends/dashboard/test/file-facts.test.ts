// The header reader the upload forms check files with (src/lib/file-facts.ts), on real files: the facts it
// reads must be those storage reads with sharp and music-metadata, or the browser would refuse what the
// server takes (or the other way round). Images are made with sharp, the library storage inspects with.
import sharp from 'sharp';
import { png, wav, wavHeader } from '../../../tests/support/media';
import { readAudioFacts, readImageFacts } from '../src/lib/file-facts';

const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

/** A FLAC stream's start: 'fLaC' and its STREAMINFO block, as an encoder writes it. */
function flacHead(sampleRate: number, channels: number, bitsPerSample: number): Buffer {
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  // 20 bits rate, 3 bits channels - 1, 5 bits bits-per-sample - 1, then 36 bits of total samples.
  info[10] = (sampleRate >> 12) & 0xff;
  info[11] = (sampleRate >> 4) & 0xff;
  info[12] = ((sampleRate & 0x0f) << 4) | ((channels - 1) << 1) | ((bitsPerSample - 1) >> 4);
  info[13] = ((bitsPerSample - 1) & 0x0f) << 4;
  return Buffer.concat([Buffer.from('fLaC'), Buffer.from([0x80, 0, 0, 34]), info]);
}

describe('images', () => {
  it('reads an RGB PNG, and an RGBA one as transparent', async () => {
    expect(await readImageFacts(blob(png(3000, 3000)))).toEqual({
      format: 'png',
      width: 3000,
      height: 3000,
      colorMode: 'rgb',
    });
    expect(await readImageFacts(blob(png(40, 30, { alpha: true })))).toMatchObject({
      width: 40,
      height: 30,
      colorMode: 'rgba',
    });
  });

  it('reads transparency carried in a tRNS chunk (a palette PNG), as sharp does', async () => {
    const palette = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#ff000080' } })
      .png({ palette: true })
      .toBuffer();
    const meta = await sharp(palette).metadata();
    expect(meta.hasAlpha).toBe(true);
    expect(await readImageFacts(blob(palette))).toMatchObject({ format: 'png', colorMode: 'rgba' });
  });

  it('reads JPEG frames: RGB, greyscale and CMYK, after a large EXIF block', async () => {
    const base = () => sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#336699' } });
    const rgb = await base()
      .withMetadata({ exif: { IFD0: { Copyright: 'x'.repeat(40_000) } } })
      .jpeg()
      .toBuffer();
    expect(await readImageFacts(blob(rgb))).toEqual({
      format: 'jpg',
      width: 3000,
      height: 2000,
      colorMode: 'rgb',
    });
    const grey = await base().toColourspace('b-w').jpeg().toBuffer();
    expect(await readImageFacts(blob(grey))).toMatchObject({ colorMode: 'grayscale' });
    const cmyk = await base().toColourspace('cmyk').jpeg().toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    expect(await readImageFacts(blob(cmyk))).toMatchObject({ colorMode: 'cmyk' });
  });

  it('names formats the stores refuse, and leaves unknown bytes to the server', async () => {
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    expect(await readImageFacts(blob(webp))).toMatchObject({ format: 'webp' });
    expect(await readImageFacts(blob(Buffer.from('not an image at all')))).toBeUndefined();
  });
});

describe('audio', () => {
  it('reads a WAV fmt chunk (rate, channels, bit depth)', async () => {
    expect(await readAudioFacts(blob(wav(1)))).toEqual({
      format: 'wav',
      sampleRate: 44_100,
      channels: 2,
      bitDepth: 16,
    });
    const mono24 = Buffer.concat([wavHeader(6, { rate: 96_000, channels: 1, bits: 24 }), Buffer.alloc(6)]);
    expect(await readAudioFacts(blob(mono24))).toEqual({
      format: 'wav',
      sampleRate: 96_000,
      channels: 1,
      bitDepth: 24,
    });
  });

  it('reads a FLAC STREAMINFO block', async () => {
    expect(await readAudioFacts(blob(flacHead(48_000, 2, 24)))).toEqual({
      format: 'flac',
      sampleRate: 48_000,
      channels: 2,
      bitDepth: 24,
    });
    expect(await readAudioFacts(blob(flacHead(44_100, 6, 16)))).toMatchObject({ channels: 6, bitDepth: 16 });
  });

  it('names an MP3 (ID3 tag or bare frame) and leaves unknown bytes to the server', async () => {
    expect(await readAudioFacts(blob(Buffer.from('ID3\x04\x00rest', 'binary')))).toMatchObject({
      format: 'mp3',
    });
    expect(await readAudioFacts(blob(Buffer.from([0xff, 0xfb, 0x90, 0x00, 0, 0, 0, 0])))).toMatchObject({
      format: 'mp3',
    });
    expect(await readAudioFacts(blob(Buffer.from('plain text, no audio')))).toBeUndefined();
  });
});
