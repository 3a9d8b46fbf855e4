// The one entry an import uses: a source name and a way to open the file's bytes (a DSR in the Basic
// Audio profile is read twice, so a stream alone would not do). Whole-file problems are StatementRefused,
// from `header` when found before the header, and from the iteration of `items` in every case.
import type { Readable } from 'node:stream';
import { readCsvStatement } from './csv';
import { readDsr } from './dsr';
import type { Statement } from './line';
import type { TemplateName } from './templates';

export type StatementSourceName = 'dsr' | TemplateName;

export function readStatement(source: StatementSourceName, open: () => Readable): Statement {
  return source === 'dsr' ? readDsr(open) : readCsvStatement(open(), source);
}
