// A chunk of ledger lines survives being packed into text and read back, whatever its titles hold.
import { type LedgerLine, packLines, unpackLines } from '../src/domain/ledger-line';
import { aStatementLine } from './support/statements';

const line = (over: Partial<LedgerLine> = {}): LedgerLine => ({
  ...aStatementLine(),
  ownerId: 'owner-1',
  releaseId: 'release-1',
  trackId: 'track-1',
  ...over,
});

describe('packed ledger lines', () => {
  it('read back equal, tabs, newlines and backslashes in text included', () => {
    const lines = [
      line(),
      line({
        lineNo: 8,
        title: 'Tab\there\nnewline \\ back\\slash \\t \\d literal \x7f del',
        artist: '',
        proprietaryIds: [],
      }),
      line({ lineNo: 9, trackId: '', isrc: '', amountAcct: 10n ** 20n }),
      line({ lineNo: 10, releaseId: 'release-2', trackId: 'track-9' }),
      line({ lineNo: 11 }),
      // The same period as the line before in its run, then a period of its own.
      line({ lineNo: 12 }),
      line({ lineNo: 13, saleStart: '2026-08-01', saleEnd: '2026-08-01' }),
      line({ lineNo: 14, saleStart: '2026-08-01', saleEnd: '2026-08-31' }),
      // Words beyond ASCII in a row (the rows are written as bytes).
      line({ lineNo: 15, adjustmentType: 'régularisation \x7f ✓' }),
    ];
    expect(unpackLines(packLines('owner-1', lines))).toEqual(lines);
  });

  it('pages written in the first layout (tabs and newlines) still read', () => {
    const first = {
      n: 2,
      fields: 'x',
      rows: [
        '7\t2026-09-01\t2026-09-30\t2026-11-15\tSpotify\tpremium\tUS\tstream\tQZOMN2600001\t190000000001\tomni:release:1|omni:track:2\tNight Drive\tNova Reyes\t-12\t-123456789\tEUR\t-133333332\t1.08\t2026-09-30\tspam_deduction\towner-1\trelease-1\ttrack-1',
        '8\t2026-09-01\t2026-09-30\t2026-11-15\tSpotify\tpremium\tUS\tstream\t\t\t\tA\\tB\\\\C\t\t1\t5\tUSD\t5\t1\t\t\towner-1\trelease-1\t',
      ].join('\n'),
    };
    expect(unpackLines(first)).toEqual([
      line(),
      line({
        lineNo: 8,
        isrc: '',
        upc: '',
        proprietaryIds: [],
        title: 'A\tB\\C',
        artist: '',
        quantity: 1,
        amountTxn: 5n,
        currencyTxn: 'USD',
        amountAcct: 5n,
        fxRate: '1',
        fxDate: '',
        adjustmentType: '',
        trackId: '',
      }),
    ]);
  });

  it('a page of ordinary lines holds nothing JSON must escape (its round trips stay on the fast path)', () => {
    const packed = packLines('owner-1', [line(), line({ lineNo: 8, title: 'plain title' })]);
    expect(JSON.stringify(packed.rows)).toBe(`"${packed.rows}"`);
  });

  it('an empty chunk is empty', () => {
    expect(unpackLines(packLines('owner-1', []))).toEqual([]);
  });
});
