import { analyticsQuery, filtersFrom, withFilter } from '../src/lib/analytics-api';
import { formatMonth, formatRefreshed, saleAndReportLine } from '../src/lib/analytics-format';
import { csvFileName, toCsv } from '../src/lib/csv';
import { formatUsd, toNano } from '../src/lib/money';

describe('money as decimal strings', () => {
  it('reads amounts exactly, to the nano-dollar', () => {
    expect(toNano('12.34567890')).toBe(12_345_678_900n);
    expect(toNano('-0.00789993')).toBe(-7_899_930n);
    expect(toNano('0')).toBe(0n);
    expect(() => toNano('1e3')).toThrow();
    expect(() => toNano('12.3456789012')).toThrow(); // more than 9 decimals is not the contract's
  });

  it('shows two decimals, rounding half away from zero on the exact value, never "-$0.00"', () => {
    expect(formatUsd('1480.345678901')).toBe('$1,480.35');
    expect(formatUsd('702.005')).toBe('$702.01');
    expect(formatUsd('0.004999999')).toBe('$0.00');
    expect(formatUsd('-0.004')).toBe('$0.00');
    expect(formatUsd('-12.345')).toBe('-$12.35');
    expect(formatUsd('1234567.891')).toBe('$1,234,567.89');
    // A float would make this 1.00499999… and round down.
    expect(formatUsd('1.005')).toBe('$1.01');
  });
});

describe('CSV', () => {
  it('quotes what needs quoting, keeps amounts exact and defuses formulas in names', () => {
    const csv = toCsv(
      ['Track', 'Earnings (USD)'],
      [
        [{ text: 'Night Drive, Pt. 2' }, '1480.345678901'],
        [{ text: 'Say "Hi"' }, '-0.004'],
        [{ text: '=HYPERLINK("x")' }, '0'],
        [{ text: '+1 (Remix)' }, 12],
      ],
    );
    expect(csv).toBe(
      '\uFEFFTrack,Earnings (USD)\r\n' +
        '"Night Drive, Pt. 2",1480.345678901\r\n' +
        '"Say ""Hi""",-0.004\r\n' +
        '"\'=HYPERLINK(""x"")",0\r\n' +
        "'+1 (Remix),12\r\n",
    );
  });

  it('names files from words', () => {
    expect(csvFileName('omni-earnings-by-store', '2026-01-to-2026-10')).toBe(
      'omni-earnings-by-store-2026-01-to-2026-10.csv',
    );
    expect(csvFileName('omni-earnings-by-store', '')).toBe('omni-earnings-by-store.csv');
  });
});

describe('months, days and refresh times', () => {
  it('reads months from their strings, whatever the zone', () => {
    expect(formatMonth('2026-10')).toBe('Oct 2026');
    expect(formatMonth('2026-01-01')).toBe('Jan 2026');
    expect(formatMonth('later')).toBe('later');
    expect(saleAndReportLine({ saleMonth: '2026-10', reportedMonth: '2026-12' })).toBe(
      'Sale month Oct 2026 · reported Dec 2026',
    );
  });

  it('says refresh times in UTC, and "never"', () => {
    expect(formatRefreshed('2026-12-04T15:00:00Z')).toBe('Dec 4, 2026, 3:00 PM UTC');
    expect(formatRefreshed(null)).toBe('never');
  });
});

describe('filters', () => {
  const tracks = [
    { key: 't1', label: 'One', release: 'r1' },
    { key: 't2', label: 'Two', release: 'r2' },
  ];

  it('go to the server in a fixed order, empty ones left out', () => {
    expect(analyticsQuery({ track: 't1', from: '2026-01', store: '' })).toBe('?from=2026-01&track=t1');
    expect(analyticsQuery({})).toBe('');
    expect(filtersFrom(new URLSearchParams('store=spotify&to=2026-10&x=1&release='))).toEqual({
      store: 'spotify',
      to: '2026-10',
    });
  });

  it('turn a month range round and let go of a track of another release', () => {
    expect(withFilter({ to: '2026-03' }, 'from', '2026-09', tracks)).toEqual({
      from: '2026-03',
      to: '2026-09',
    });
    expect(withFilter({ track: 't1', release: 'r1' }, 'release', 'r2', tracks)).toEqual({ release: 'r2' });
    expect(withFilter({ track: 't2' }, 'release', 'r2', tracks)).toEqual({ track: 't2', release: 'r2' });
    expect(withFilter({ store: 'spotify' }, 'store', undefined, tracks)).toEqual({});
  });
});
