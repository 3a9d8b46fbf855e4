// The DDEX DSR reader, Basic Audio Profile (multi-record blocks): each summary's NetRevenue shared out
// over the SU lines that point to it, to the nano, read in two passes over a file opened twice.
import { Readable } from 'node:stream';
import { readDsr } from '../src/domain/statements/dsr';
import { BAP, collect, commentFor, gzipped, record, refusal, streamOf } from './support/statements';

const HEAD = record('HEAD', BAP.HEAD, {
  MessageVersion: 'dsrf/30/20/34',
  Profile: 'BasicAudioProfile',
  ProfileVersion: '1.2',
  MessageId: 'DZR-2024-02',
  MessageCreatedDateTime: '2024-03-10T08:00:00Z',
  FileNumber: 1,
  NumberOfFiles: 1,
  UsageStartDate: '2024-02',
  UsageEndDate: '2024-02',
  SenderPartyId: 'PADPIDA2010000001D',
  SenderName: 'Deezer',
});

const sy01 = (id: string, cells: Record<string, string | number>) =>
  record('SY01.01', BAP['SY01.01'], {
    SummaryRecordId: id,
    CommercialModel: 'PayAsYouGoModel',
    UseType: 'PermanentDownload',
    Territory: 'US',
    Usages: 3,
    CurrencyOfReporting: 'USD',
    ...cells,
  });
const sy02 = (id: string, cells: Record<string, string | number>) =>
  record('SY02.02', BAP['SY02.02'], {
    SummaryRecordId: id,
    CommercialModel: 'SubscriptionModel',
    UseType: 'OnDemandStream',
    Territory: 'FR',
    ServiceDescription: 'Premium',
    Usages: 10,
    CurrencyOfReporting: 'USD',
    ContentCategory: 'Music',
    ...cells,
  });
const re01 = (block: string, icpn: string, title: string) =>
  record('RE01', BAP.RE01, {
    BlockId: block,
    ReleaseReference: 'R0',
    DspReleaseId: `dz-${block}`,
    ProprietaryReleaseId: `OMNI::r${block}`,
    ICPN: icpn,
    DisplayArtistName: 'Nora Vale',
    Title: title,
  });
const as01 = (block: string, ref: string, isrc: string, title: string) =>
  record('AS01.01', BAP['AS01.01'], {
    BlockId: block,
    ResourceReference: ref,
    DspResourceId: `dz-${block}-${ref}`,
    ISRC: isrc,
    Title: title,
    DisplayArtistName: 'Nora Vale',
    ResourceType: 'SoundRecording',
  });
const su01 = (block: string, sy: string, cells: Record<string, string | number>) =>
  record('SU01', BAP.SU01, {
    BlockId: block,
    SummaryRecordId: sy,
    SalesTransactionId: `T${block}${sy}`,
    IsRoyaltyBearing: 'true',
    SalesUpgrade: 'false',
    Returns: 0,
    ...cells,
  });
const su02 = (block: string, sy: string, cells: Record<string, string | number>) =>
  record('SU02', BAP.SU02, {
    BlockId: block,
    SummaryRecordId: sy,
    SalesTransactionId: `S${block}${sy}`,
    IsRoyaltyBearing: 'true',
    ...cells,
  });

function bapFile(records: string[], opts: { blocks: number; summaries: number }): string {
  const lines = [HEAD, commentFor('SU02', BAP.SU02), ...records];
  const foot = record('FOOT', BAP.FOOT, {
    NumberOfLinesInFile: lines.length + 1,
    NumberOfLinesInReport: lines.length + 1,
    NumberOfSummaryRecords: opts.summaries,
    NumberOfBlocksInFile: opts.blocks,
    NumberOfBlocksInReport: opts.blocks,
  });
  return `${[...lines, foot].join('\r\n')}\r\n`;
}

const FILE = bapFile(
  [
    sy01('S1', { NetRevenue: '2.10' }),
    sy02('S2', { NetRevenue: '0.000000011' }),
    sy02('S3', { NetRevenue: '4.00', CurrencyOfReporting: 'EUR' }),
    sy01('S4', { NetRevenue: '5.00', Territory: 'Worldwide' }),
    re01('1', '0198765432109', 'First Light'),
    as01('1', 'A1', 'QZDA92400001', 'Morning'),
    record('RE02', BAP.RE02, {
      BlockId: '1',
      ReleaseReference: 'R1',
      DspSubReleaseId: 'dz-1-t1',
      ProprietarySubReleaseId: 'OMNI::t1',
      UsedResources: 'A1',
    }),
    su01('1', 'S1', { TransactedRelease: 'R0', Usages: 1 }),
    su02('1', 'S2', { TransactedResource: 'A1', NumberOfStreams: 3 }),
    re01('2', '0198765432116', 'Second'),
    as01('2', 'A1', 'qzda92400002', 'Evening'),
    record('RE02', BAP.RE02, {
      BlockId: '2',
      ReleaseReference: 'R1',
      DspSubReleaseId: 'dz-2-t1',
      ProprietarySubReleaseId: 'OMNI::t2',
      UsedResources: 'A1',
    }),
    su01('2', 'S1', { TransactedResource: 'A1', Usages: 3, Returns: 1 }),
    su02('2', 'S2', { TransactedRelease: 'R1', NumberOfStreams: 7 }),
    su02('2', 'S3', { TransactedResource: 'A1', NumberOfStreams: 7 }),
  ],
  { blocks: 2, summaries: 4 },
);

describe('Basic Audio profile (SY01/SY02 + RE/AS/SU blocks)', () => {
  it('shares each summary out over its lines by usages and describes what each line transacted', async () => {
    let opened = 0;
    const { header, lines, refused } = await collect(
      readDsr(() => {
        opened += 1;
        return streamOf(FILE, 11);
      }),
    );
    expect(opened).toBe(2);
    expect(header).toEqual({
      sender: 'PADPIDA2010000001D',
      messageId: 'DZR-2024-02',
      periodStart: '2024-02-01',
      periodEnd: '2024-02-29',
      reportedAt: '2024-03-10',
    });
    const shown = lines.map((l) => [
      l.lineNo,
      l.usageType,
      l.isrc,
      l.upc,
      l.title,
      l.quantity,
      l.amountAcct,
      l.territory,
      l.adjustmentType,
      l.proprietaryIds,
    ]);
    expect(shown).toEqual([
      // S4 has money and no lines: the money comes in as the summary's own line.
      [6, 'other', '', '', '', 0, 5_000_000_000n, 'WW', 'summary_without_usages', []],
      // S1: 2.10 over usages 1 and 3 − 1 = 2.
      [10, 'download', '', '0198765432109', 'First Light', 1, 700_000_000n, 'US', '', ['OMNI::r1']],
      // S2: 11 nano over 3 and 7 streams: 3.3 and 7.7 → 3 and 8.
      [11, 'stream', 'QZDA92400001', '0198765432109', 'Morning', 3, 3n, 'FR', '', ['OMNI::r1']],
      [15, 'download', 'QZDA92400002', '0198765432116', 'Evening', 2, 1_400_000_000n, 'US', '', ['OMNI::r2']],
      // A sub-release of one resource: that resource's ISRC, and both releases' ids.
      [16, 'stream', 'QZDA92400002', '0198765432116', 'Evening', 7, 8n, 'FR', '', ['OMNI::t2', 'OMNI::r2']],
    ]);
    expect(lines[2]).toMatchObject({
      store: 'Deezer',
      serviceTier: 'SubscriptionModel',
      saleStart: '2024-02-01',
      saleEnd: '2024-02-29',
      currencyTxn: 'USD',
      amountTxn: 3n,
      fxRate: '1',
      fxDate: '',
    });
    expect(refused).toEqual([
      {
        kind: 'refused',
        lineNo: 17,
        reason:
          'Line 17 cannot be used: its amount is in EUR; Omni accounts in US dollars and the file gives no rate to US dollars.',
        amountAcct: null,
      },
    ]);
  });

  it('reads the same gzipped', async () => {
    const plain = await collect(readDsr(() => streamOf(FILE)));
    expect(await collect(readDsr(() => streamOf(gzipped(FILE), 13)))).toEqual(plain);
  });

  it('checks the footer in the first pass, before any line is given out', async () => {
    const wrongBlocks = FILE.replace(/FOOT\t(\d+)\t(\d+)\t4\t2\t2/, 'FOOT\t$1\t$2\t4\t3\t3');
    const statement = readDsr(() => streamOf(wrongBlocks));
    const iterator = statement.items[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow(
      'The file says it has 3 release blocks (FOOT) but 2 were found. The file is damaged; ask the store for it again.',
    );
    expect(await refusal(readDsr(() => streamOf(FILE.replace(/FOOT\t18\t18/, 'FOOT\t19\t19'))))).toBe(
      'The file says it has 19 lines (FOOT) but 18 were found; it may have been cut off. Ask the store for the file again.',
    );
  });

  it('lines add up to their summary to the nano, whatever the usages (property over random files)', async () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 25; round += 1) {
      const totals = ['S1', 'S2', 'S3'].map(() => BigInt(Math.floor(next() * 1e12)) - 100_000_000_000n);
      const territories = ['US', 'FR', 'DE'];
      const body: string[] = totals.map((t, i) =>
        sy02(`S${i + 1}`, { Territory: territories[i]!, NetRevenue: (Number(t) / 1e9).toFixed(9) }),
      );
      const blocks = 1 + Math.floor(next() * 12);
      for (let b = 1; b <= blocks; b += 1) {
        body.push(as01(String(b), 'A1', 'QZDA92400001', 'x'));
        const lines = 1 + Math.floor(next() * 20);
        for (let l = 0; l < lines; l += 1) {
          body.push(
            su02(String(b), `S${1 + Math.floor(next() * 3)}`, {
              TransactedResource: 'A1',
              NumberOfStreams: Math.floor(next() * (next() < 0.5 ? 3 : 5000)),
            }),
          );
        }
      }
      const { lines } = await collect(readDsr(() => streamOf(bapFile(body, { blocks, summaries: 3 }), 4096)));
      // Per summary (one territory each): shared over its lines, or whole as its own line when it has none.
      const sums = territories.map((t) =>
        lines.filter((l) => l.territory === t).reduce((a, l) => a + l.amountAcct, 0n),
      );
      expect({ round, sums }).toEqual({ round, sums: totals });
    }
  });

  it('notices a file that reads differently the second time', async () => {
    let opened = 0;
    const statement = readDsr(() => {
      opened += 1;
      return opened === 1 ? streamOf(FILE) : Readable.from([Buffer.from(FILE.slice(0, 400))]);
    });
    await expect(collect(statement)).rejects.toThrow(
      'The statement file did not read the same the second time',
    );
  });
});
