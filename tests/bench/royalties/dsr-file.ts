// A synthetic DDEX DSR (FinancialReportingToRecordCompaniesProfileSRB) of N lines for the bench's
// catalogue, written with the store simulator's own DSR writer: one SY10 per store × territory, then the
// lines summary by summary, every track in turn — the order a store's monthly report comes in. Money is
// deterministic (usages and a price per store); a summary's totals are computed by a first pass over its
// own lines, as the writer asks. Streaming: memory stays one summary's totals.
import { createWriteStream } from 'node:fs';
import {
  createDsrWriter,
  type Sr08Line,
  SummaryTotals,
} from '../../../services/delivery/src/simulator/reports/dsr-writer';
import { parseNano } from '../../../services/delivery/src/simulator/reports/nano';
import { catalogue } from './catalogue';

const STORES = [
  'Spotify',
  'AppleMusic',
  'AmazonMusic',
  'Deezer',
  'YouTubeMusic',
  'Tidal',
  'TikTok',
  'Pandora',
];
const TERRITORIES = 'US GB DE FR BR JP CA AU MX ES IT NL SE NO PL IN KR ZA NG AR CL CO TR ID PH'.split(' ');
const EUROS = new Set(['DE', 'FR', 'ES', 'IT', 'NL']);

export async function writeBenchDsr(
  path: string,
  lines: number,
  month = '2026-09',
): Promise<{ totalUsdNano: bigint }> {
  const tracks = catalogue();
  const start = `${month}-01`;
  const end = `${month}-30`;
  const writer = createDsrWriter(createWriteStream(path, { highWaterMark: 1 << 20 }), {
    messageId: `bench-${lines}-${month}`,
    createdAt: '2026-11-15T10:00:00Z',
    usageStart: start,
    usageEnd: end,
    sender: { partyId: 'PADPIDA2026BENCH01', name: 'Bench Store Group' },
    recipient: { partyId: 'PADPIDA2026OMNI001', name: 'Omni Distribution' },
    serviceDescription: 'Bench',
  });
  const summaries: Array<{
    store: number;
    territory: string;
    from: number;
    to: number;
    rate: string;
    currency: string;
  }> = [];
  for (let s = 0, n = 0; n < lines; s += 1) {
    const store = s % STORES.length;
    const territory = TERRITORIES[Math.floor(s / STORES.length) % TERRITORIES.length]!;
    const count = Math.min(tracks.length, lines - n);
    const euro = EUROS.has(territory);
    summaries.push({
      store,
      territory,
      from: n,
      to: n + count,
      rate: euro ? '1.085' : '1',
      currency: euro ? 'EUR' : 'USD',
    });
    n += count;
  }
  const lineOf = (i: number, store: number, summaryId: string): Sr08Line => {
    const t = tracks[i % tracks.length]!;
    return {
      summaryId,
      releaseIcpn: t.upc,
      dspReleaseId: `R${t.upc}`,
      isrc: t.isrc,
      dspResourceId: `T${t.isrc}`,
      resourceTitle: t.title,
      resourceDisplayArtistName: `Artist ${t.owner}`,
      date: end,
      usages: 1 + ((i * 7919) % 997),
      returns: 0,
      unitPriceNano: 1_000_000n * BigInt(2 + store),
    };
  };
  // The summaries' ids are the writer's; a first pass computes each one's totals from its own lines.
  const ids: string[] = [];
  for (const s of summaries) {
    const totals = new SummaryTotals();
    const rate = parseNano(s.rate);
    for (let i = s.from; i < s.to; i += 1) totals.add(lineOf(i, s.store, ''), rate);
    ids.push(
      writer.summary({
        commercialModel: 'SubscriptionModel',
        useType: 'OnDemandStream',
        start,
        end,
        territory: s.territory,
        serviceDescription: STORES[s.store]!,
        currency: s.currency,
        exchangeRate: s.rate,
        dateOfCurrencyExchange: `${end}T00:00:00Z`,
        totals,
      }),
    );
  }
  for (const [k, s] of summaries.entries())
    for (let i = s.from; i < s.to; i += 1) {
      const wait = writer.line(lineOf(i, s.store, ids[k]!));
      if (wait) await wait;
    }
  const result = await writer.end();
  return { totalUsdNano: result.totalAccountingNano };
}
