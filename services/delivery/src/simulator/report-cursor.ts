// When the simulated stores are asked for their reports, each period is reported once: from the day after
// the last report up to today (UTC), cut at month ends so every statement covers one sale month, as real
// stores' monthly reports do. A store reporting the same days twice would double the artist's money (the
// second file's MessageId differs); the cursor in the simulator's folder is what prevents it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomic } from './files';
import type { SalePeriod, StoreReportsResult } from './reports';

const CURSOR = 'reports-cursor.json';

const dayAfter = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const monthEnd = (date: string) => {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** The periods not reported yet, up to `today`, one per calendar month. */
export function periodsToReport(reportedThrough: string | null, today: string): SalePeriod[] {
  let start = reportedThrough ? dayAfter(reportedThrough) : `${today.slice(0, 8)}01`;
  const out: SalePeriod[] = [];
  while (start <= today) {
    const end = monthEnd(start) < today ? monthEnd(start) : today;
    out.push({ start, end });
    start = dayAfter(end);
  }
  return out;
}

export async function writeNextReports(
  root: string,
  write: (period: SalePeriod) => Promise<StoreReportsResult>,
  now: Date,
): Promise<number> {
  const path = join(root, CURSOR);
  const cursor = await readFile(path, 'utf8')
    .then((text) => (JSON.parse(text) as { reportedThrough: string }).reportedThrough)
    .catch(() => null);
  const today = now.toISOString().slice(0, 10);
  let files = 0;
  for (const period of periodsToReport(cursor, today)) {
    files += (await write(period)).files.length;
    await writeAtomic(path, JSON.stringify({ reportedThrough: period.end }), root);
  }
  return files;
}
