// Reads one registry snapshot (FORMAT.md) into compact indexes: by canonical ISRC for recordings, by ISWC and
// by title for works. Streams the file; a bad line stops the load with its file name and line number.
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Registration, RegistryConnector, RegistryId, RegistryKeys, WorkQuery } from '../port';

/** A snapshot answers at once (its indexes are in memory). */
export interface SnapshotConnector extends RegistryConnector {
  lookupRecording(isrc: string): Registration;
  lookupWork(work: WorkQuery): Registration;
}

export class SnapshotFormatError extends Error {
  override name = 'SnapshotFormatError';
}

const RECORDING_REGISTRIES: readonly RegistryId[] = ['soundexchange', 'ppl'];
const SEPARATOR = '\u0001';

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(';')
    .map((item) => item.trim())
    .filter((item) => item !== '');

export async function parseSnapshot(
  registry: RegistryId,
  snapshotDate: string,
  input: Readable | string,
  keys: RegistryKeys,
  fileName = `${registry}-${snapshotDate}.csv`,
): Promise<SnapshotConnector> {
  const { isrc: checkIsrc, iswc: checkIswc, name: nameKey } = keys;
  const kind: SnapshotConnector['kind'] = RECORDING_REGISTRIES.includes(registry) ? 'recording' : 'work';
  const required = kind === 'recording' ? 'isrc' : 'title';
  // Recordings: ISRC → 'owner\u0001performer\u0001…'. Works: ISWC or title key → writers joined the same way.
  const recordings = new Map<string, string>();
  const worksByIswc = new Map<string, string>();
  const worksByTitle = new Map<string, string[]>();
  const parser = parse({
    columns: (header: string[]) => {
      const columns = header.map((name) => name.trim().toLowerCase());
      if (!columns.includes(required))
        throw new SnapshotFormatError(`${fileName} line 1: the header has no "${required}" column.`);
      return columns;
    },
    // Files exported on Windows and edited elsewhere mix line endings.
    record_delimiter: ['\r\n', '\n'],
    skip_empty_lines: true,
    trim: true,
    bom: true,
    info: true,
  });
  if (typeof input === 'string') parser.end(input);
  else {
    input.on('error', (error) => parser.destroy(error));
    input.pipe(parser);
  }
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      const where = `${fileName} line ${info.lines}`;
      if (kind === 'recording') {
        const isrc = checkIsrc(record.isrc ?? '');
        if (!isrc.ok)
          throw new SnapshotFormatError(
            `${where}: "${record.isrc ?? ''}" is not a valid ISRC (${isrc.problem})`,
          );
        recordings.set(isrc.normalised, [record.owner ?? '', ...list(record.performers)].join(SEPARATOR));
      } else {
        const title = (record.title ?? '').trim();
        if (title === '') throw new SnapshotFormatError(`${where}: the work has no title.`);
        const writers = list(record.writers).join(SEPARATOR);
        const iswcText = (record.iswc ?? '').trim();
        if (iswcText !== '') {
          const iswc = checkIswc(iswcText);
          if (!iswc.ok)
            throw new SnapshotFormatError(`${where}: "${iswcText}" is not a valid ISWC (${iswc.problem})`);
          worksByIswc.set(iswc.normalised, writers);
        }
        const key = nameKey(title);
        worksByTitle.set(key, [...(worksByTitle.get(key) ?? []), writers]);
      }
    }
  } catch (error) {
    if (typeof input !== 'string') input.destroy();
    if (error instanceof SnapshotFormatError) throw error;
    const { lines, code, record } = error as { lines?: number; code?: string; record?: string[] };
    const where = `${fileName}${lines ? ` line ${lines}` : ''}`;
    if (code === 'CSV_RECORD_INCONSISTENT_COLUMNS' && record)
      throw new SnapshotFormatError(
        `${where}: ${record.length} fields, but the header names a different number.`,
      );
    // csv-parse's own sentences ('Invalid Closing Quote: …') already say what is wrong.
    throw new SnapshotFormatError(`${where}: ${(error as Error).message}`);
  }

  return {
    id: registry,
    kind,
    snapshotDate,
    live: false,
    lookupRecording(isrc: string): Registration {
      const entry = recordings.get(isrc);
      if (entry === undefined) return { registered: false };
      const [owner = '', ...performers] = entry.split(SEPARATOR);
      return { registered: true, owner, performers };
    },
    lookupWork(work: WorkQuery): Registration {
      const byCode = work.iswc ? worksByIswc.get(work.iswc) : undefined;
      if (byCode !== undefined) return { registered: true, writers: split(byCode) };
      const wanted = new Set(work.writers.map(nameKey));
      const match = (worksByTitle.get(nameKey(work.title)) ?? []).find(
        (writers) => wanted.size === 0 || split(writers).some((writer) => wanted.has(nameKey(writer))),
      );
      return match === undefined ? { registered: false } : { registered: true, writers: split(match) };
    },
  };
}

const split = (joined: string): string[] => (joined === '' ? [] : joined.split(SEPARATOR));
