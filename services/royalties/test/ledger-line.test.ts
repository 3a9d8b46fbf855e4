// A chunk of ledger lines survives being packed into text and read back, whatever its titles hold.
import { type LedgerLine, packLines, unpackLines } from '../src/domain/ledger-line';

const line = (over: Partial<LedgerLine> = {}): LedgerLine => ({
  lineNo: 7,
  saleStart: '2026-09-01',
  saleEnd: '2026-09-30',
  reportedAt: '2026-11-15',
  store: 'Spotify',
  serviceTier: 'premium',
  territory: 'US',
  usageType: 'stream',
  isrc: 'QZOMN2600001',
  upc: '190000000001',
  proprietaryIds: ['omni:release:1', 'omni:track:2'],
  title: 'Night Drive',
  artist: 'Nova Reyes',
  quantity: -12,
  amountTxn: -123_456_789n,
  currencyTxn: 'EUR',
  amountAcct: -133_333_332n,
  fxRate: '1.08',
  fxDate: '2026-09-30',
  adjustmentType: 'spam_deduction',
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
        title: 'Tab\there\nnewline \\ back\\slash \\t literal',
        artist: '',
        proprietaryIds: [],
      }),
      line({ lineNo: 9, trackId: '', isrc: '', amountAcct: 10n ** 20n }),
    ];
    expect(unpackLines(packLines(lines))).toEqual(lines);
  });

  it('an empty chunk is empty', () => {
    expect(unpackLines(packLines([]))).toEqual([]);
  });
});
