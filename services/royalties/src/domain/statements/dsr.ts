// DDEX DSR flat files (tab-separated, one record per line): finds the HEAD, then hands the rest of the
// file to the reader of its profile (dsr-financial.ts: SY10/SR08, one pass; dsr-basic-audio.ts: SY/RE/AS/SU
// blocks, two passes, hence `open` rather than a stream). Plain or gzipped (open-text.ts).
//
// Speed, measured on a generated SRB file of 200,000 SR08 lines (56 MB), bundled by esbuild as the server
// is, node 20, on a shared 2-core machine (load ≈ 3), best of 4: a plain streaming parse (node:readline,
// split on tabs) takes 560–610 ms; open-text.ts's own line splitter with the same split 490–510 ms (so it
// is used instead of readline); readDsr to the last item 830–840 ms, about 240,000 lines/s, 0.67–0.73 of
// the plain parse. The heap grew by at most 16 MB while reading it. Per line: one split on tabs, a few
// cell reads, dates and territories from small caches, amounts without regex (money.ts).
import type { Readable } from 'node:stream';
import { readBasicAudio } from './dsr-basic-audio';
import { baseType, cellsOf, text } from './dsr-cells';
import { type Head, headerOf, notDsr, readHead, recordLine } from './dsr-file';
import { readFinancial } from './dsr-financial';
import { headerFirst } from './header-first';
import type { Statement } from './line';
import { textLines } from './open-text';

/** Reads batches until the HEAD record; returns it and the lines of its batch that follow it. */
async function findHead(lines: AsyncIterator<string[]>): Promise<{ head: Head; rest: string[] }> {
  let lineNo = 0;
  for (;;) {
    const r = await lines.next();
    if (r.done) throw notDsr();
    const batch = r.value;
    for (let i = 0; i < batch.length; i += 1) {
      lineNo += 1;
      const line = batch[i]!;
      if (!recordLine(line)) continue;
      const cells = cellsOf(line);
      if (baseType(text(cells[0])) !== 'HEAD') throw notDsr();
      return { head: readHead(cells, lineNo), rest: batch.slice(i + 1) };
    }
  }
}

async function* continuing(rest: string[], lines: AsyncIterator<string[]>): AsyncGenerator<string[]> {
  if (rest.length > 0) yield rest;
  for (;;) {
    const r = await lines.next();
    if (r.done) return;
    yield r.value;
  }
}

/**
 * Reads a DSR file. `open` is called once for the Financial Reporting profile and twice for the Basic
 * Audio profile; each call must give the same bytes from the start.
 */
export function readDsr(open: () => Readable): Statement {
  return headerFirst(async function* (setHeader) {
    const lines = textLines(open());
    try {
      const { head, rest } = await findHead(lines);
      setHeader(headerOf(head));
      const after = continuing(rest, lines);
      if (head.profile === 'financial') yield* readFinancial(head, after);
      else yield* readBasicAudio(head, after, open);
    } finally {
      await lines.return(undefined);
    }
  });
}
