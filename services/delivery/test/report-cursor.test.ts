// The simulated stores report each day once: from the day after the last report up to today, one period
// per calendar month (a second ask the same day writes nothing; days are never reported twice).
import { periodsToReport } from '../src/simulator/report-cursor';

describe('periods to report', () => {
  it('the month so far the first time', () => {
    expect(periodsToReport(null, '2026-11-28')).toEqual([{ start: '2026-11-01', end: '2026-11-28' }]);
  });
  it('nothing more the same day', () => {
    expect(periodsToReport('2026-11-28', '2026-11-28')).toEqual([]);
  });
  it('the days since, cut at month ends', () => {
    expect(periodsToReport('2026-11-28', '2027-01-03')).toEqual([
      { start: '2026-11-29', end: '2026-11-30' },
      { start: '2026-12-01', end: '2026-12-31' },
      { start: '2027-01-01', end: '2027-01-03' },
    ]);
  });
});
