// Bytes of a statement file → its text lines, for the DSR and CSV readers alike. Stores send .tsv, .csv,
// .txt and the same gzipped, often with the wrong name, so the kind is read from the first bytes rather
// than from the name: gzip (1f 8b) is inflated on the fly, a UTF-8 or UTF-16 byte-order mark picks the
// encoding, and bytes that are not text at all (a ZIP, an Excel workbook, a PDF) refuse the file here.
//
// Memory stays flat: only the current chunk and the unfinished last line are held. Lines come in batches
// (one per chunk) so that a reader does its per-line work synchronously; an await per line would cost more
// than splitting the line does.
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { StatementRefused } from './line';

/** Bytes of the file per batch of lines. */
const BATCH_BYTES = 64 * 1024;

/** A line longer than this is not a statement line: the file is binary or has no line breaks. */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

const startsWith = (b: Buffer, ...bytes: number[]) => bytes.every((x, i) => b[i] === x);

function refuseBinary(head: Buffer): void {
  if (startsWith(head, 0x50, 0x4b, 0x03, 0x04)) {
    throw new StatementRefused(
      'This file is a ZIP archive (or an Excel .xlsx workbook), not a text report. Unpack it, or export the sheet as CSV or TSV, and send that file.',
    );
  }
  if (startsWith(head, 0xd0, 0xcf, 0x11, 0xe0)) {
    throw new StatementRefused(
      'This file is an old Excel workbook (.xls). Export the sheet as CSV or TSV and send that file.',
    );
  }
  if (startsWith(head, 0x25, 0x50, 0x44, 0x46)) {
    throw new StatementRefused(
      'This file is a PDF. Ask the store for the report as a CSV, TSV or DDEX DSR file.',
    );
  }
}

async function* chunksOf(input: Readable): AsyncGenerator<Buffer> {
  for await (const chunk of input) yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
}

/** Reads until at least `n` bytes (or the end) and returns them with an iterator over the rest. */
async function peek(source: AsyncIterator<Buffer>, n: number): Promise<[Buffer, AsyncGenerator<Buffer>]> {
  const parts: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < n) {
    const r = await source.next();
    if (r.done) {
      ended = true;
      break;
    }
    parts.push(r.value);
    size += r.value.length;
  }
  const head = Buffer.concat(parts);
  async function* all(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (ended) return;
    for (;;) {
      const r = await source.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return [head, all()];
}

function gunzip(bytes: AsyncGenerator<Buffer>): AsyncIterable<Buffer> {
  const inflate = createGunzip();
  // pipeline destroys both sides on an error, so the iteration below throws instead of hanging.
  pipeline(Readable.from(bytes), inflate, () => {});
  return (async function* () {
    try {
      for await (const chunk of inflate) yield chunk as Buffer;
    } catch (e) {
      // zlib's own errors (Z_DATA_ERROR, Z_BUF_ERROR: "unexpected end of file") are the file's fault;
      // anything else (the upload failing) is not, and goes up as it is.
      const code = (e as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('Z_')) throw e;
      throw new StatementRefused(
        'The file is compressed (gzip) but could not be unpacked: it is damaged or was cut off. Ask the store for the file again.',
      );
    } finally {
      inflate.destroy();
    }
  })();
}

/**
 * The physical lines of a text or gzipped text file, in batches, without their line endings (LF, CRLF or
 * a lone CR). A final line without an ending is a line; the empty string after a final ending is not.
 * Throws StatementRefused for files that are not text.
 */
export async function* textLines(input: Readable): AsyncGenerator<string[]> {
  try {
    let [head, bytes] = await peek(chunksOf(input)[Symbol.asyncIterator](), 4);
    let source: AsyncIterable<Buffer> = bytes;
    if (startsWith(head, 0x1f, 0x8b)) {
      const inner = gunzip(bytes)[Symbol.asyncIterator]();
      [head, bytes] = await peek(inner as AsyncIterator<Buffer>, 4);
      source = bytes;
    }
    refuseBinary(head);
    const utf16 = startsWith(head, 0xff, 0xfe)
      ? 'utf-16le'
      : startsWith(head, 0xfe, 0xff)
        ? 'utf-16be'
        : null;
    // TextDecoder drops a leading byte-order mark and keeps multi-byte characters split across chunks whole.
    const decoder = new TextDecoder(utf16 ?? 'utf-8');
    let carry = '';
    let checked = utf16 !== null;
    for await (const read of source) {
      // Read ahead in large pieces (fewer reads to wait for), split into small batches: a reader keeps a
      // batch's objects until it has gone through it, and those of thousands of lines outlived the young
      // collections and were promoted.
      for (let at = 0; at < read.length; at += BATCH_BYTES) {
        const chunk = read.subarray(at, at + BATCH_BYTES);
        const text = decoder.decode(chunk, { stream: true });
        if (!checked) {
          // A NUL in the first chunk of a UTF-8 file means binary data, not a report.
          if (text.includes('\0')) {
            throw new StatementRefused(
              'This file is not a text report (it holds binary data). Send the CSV, TSV or DSR file itself.',
            );
          }
          checked = true;
        }
        const [lines, rest] = split(carry + text);
        carry = rest;
        if (carry.length > MAX_LINE_CHARS) {
          throw new StatementRefused(
            'The file has a line longer than 16 million characters, so it is not a report Omni can read. Check that the right file was sent.',
          );
        }
        if (lines.length > 0) yield lines;
      }
    }
    carry += decoder.decode();
    if (carry.endsWith('\r')) carry = carry.slice(0, -1);
    if (carry !== '') yield [carry];
  } finally {
    input.destroy();
  }
}

/**
 * Splits text into complete lines and the unfinished rest. A CR at the very end stays in the rest, as
 * the LF of a CRLF may come in the next chunk.
 */
function split(text: string): [string[], string] {
  const lines: string[] = [];
  let pos = 0;
  // Old Mac exports end lines with a lone CR; find CRs once per chunk, not once per line.
  let cr = text.indexOf('\r');
  for (;;) {
    const lf = text.indexOf('\n', pos);
    if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
    if (cr !== -1 && (lf === -1 || cr < lf - 1)) {
      // A lone CR ends the line (one right before the LF belongs to a CRLF).
      if (cr === text.length - 1) break;
      lines.push(text.slice(pos, cr));
      pos = cr + 1;
      continue;
    }
    if (lf === -1) break;
    lines.push(text.slice(pos, cr !== -1 && cr === lf - 1 ? lf - 1 : lf));
    pos = lf + 1;
  }
  return [lines, text.slice(pos)];
}
