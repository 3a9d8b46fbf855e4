// A store's trend report (estimated daily streams): `date,store,territory,isrc,upc,streams`, as the store
// simulator writes them (TREND_<store>_<date>.csv). Rows are matched like statement lines; a row for a
// recording Omni does not know is counted and left (estimates carry no money to account for).
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { StatementLine } from '../domain/statements/line';
import type { TrendsRepository } from '../store/trends';
import type { Matcher } from './match-lines';

const BATCH = 2000;

export async function importTrends(
  input: Readable,
  deps: { trends: TrendsRepository; matcher: Matcher },
): Promise<{ rows: number; unknown: number }> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let columns: string[] | null = null;
  let rows = 0;
  let unknown = 0;
  let batch: StatementLine[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const { matched, unmatched } = await deps.matcher.match(batch);
    unknown += unmatched.length;
    await deps.trends.put(
      matched.map((m) => ({
        ownerId: m.ownerId,
        date: m.saleStart,
        store: m.store,
        territory: m.territory,
        releaseId: m.releaseId,
        trackId: m.trackId,
        streams: m.quantity,
      })),
    );
    batch = [];
  };
  let lineNo = 0;
  for await (const text of lines) {
    lineNo += 1;
    if (!text.trim()) continue;
    const cells = text.split(',').map((c) => c.trim());
    if (!columns) {
      columns = cells.map((c) => c.toLowerCase());
      for (const need of ['date', 'store', 'territory', 'isrc', 'streams'])
        if (!columns.includes(need)) throw new Error(`A trend report needs a ${need} column.`);
      continue;
    }
    const get = (name: string) => cells[columns!.indexOf(name)] ?? '';
    const streams = Number.parseInt(get('streams'), 10);
    const date = get('date');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !Number.isSafeInteger(streams)) continue;
    rows += 1;
    batch.push({
      lineNo,
      saleStart: date,
      saleEnd: date,
      reportedAt: date,
      store: get('store'),
      serviceTier: '',
      territory: get('territory').toUpperCase(),
      usageType: 'stream',
      isrc: get('isrc').toUpperCase(),
      upc: get('upc'),
      proprietaryIds: [],
      title: '',
      artist: '',
      quantity: streams,
      amountTxn: 0n,
      currencyTxn: 'USD',
      amountAcct: 0n,
      fxRate: '1',
      fxDate: '',
      adjustmentType: '',
    });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { rows, unknown };
}
