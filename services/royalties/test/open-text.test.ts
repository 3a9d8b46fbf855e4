// Bytes → lines for both readers: line endings, chunk boundaries, encodings, gzip, and files that are
// not text at all.
import { Readable } from 'node:stream';
import { textLines } from '../src/domain/statements/open-text';
import { gzipped, streamOf } from './support/statements';

async function linesOf(input: Readable): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of textLines(input)) out.push(...batch);
  return out;
}

describe('textLines', () => {
  it('splits on LF, CRLF and a lone CR, at every chunk boundary', async () => {
    const text = 'AAA\tb\n\nCCC\r\nDDD\rE\r\n\r\nlast';
    const expected = ['AAA\tb', '', 'CCC', 'DDD', 'E', '', 'last'];
    for (let chunk = 1; chunk <= text.length; chunk += 1) {
      expect({ chunk, lines: await linesOf(streamOf(text, chunk)) }).toEqual({ chunk, lines: expected });
    }
    expect(await linesOf(streamOf('a\nb\n'))).toEqual(['a', 'b']);
    expect(await linesOf(streamOf('a\r'))).toEqual(['a']);
    expect(await linesOf(streamOf(''))).toEqual([]);
  });

  it('keeps multi-byte characters whole across chunks and drops a byte-order mark', async () => {
    const text = '\uFEFFJosé\tBjörk 🎵\nÆon';
    for (const chunk of [1, 2, 3, 5])
      expect(await linesOf(streamOf(text, chunk))).toEqual(['José\tBjörk 🎵', 'Æon']);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Title\tQty\r\nJosé\t1\r\n', 'utf16le'),
    ]);
    expect(await linesOf(streamOf(utf16, 3))).toEqual(['Title\tQty', 'José\t1']);
  });

  it('inflates gzip whatever the chunking', async () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i}\tvalue`).join('\n');
    const lines = await linesOf(streamOf(gzipped(text), 3));
    expect(lines).toHaveLength(2000);
    expect(lines[1999]).toBe('line 1999\tvalue');
  });

  it('refuses what is not text', async () => {
    await expect(linesOf(streamOf(Buffer.from('%PDF-1.7\n')))).rejects.toThrow(/This file is a PDF/);
    await expect(linesOf(streamOf(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1])))).rejects.toThrow(
      /old Excel workbook/,
    );
    await expect(linesOf(streamOf(gzipped('PK\u0003\u0004rest')))).rejects.toThrow(/ZIP archive/);
  });

  it('passes on a failure of the upload itself, not as a damaged file', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(linesOf(failing)).rejects.toThrow('connection reset');
  });
});
