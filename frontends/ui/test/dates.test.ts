import { formatPublished, formatTable } from '../src/lib/dates';

// Local noon, so the calendar day is the same in every time zone the tests may run in.
const noon = new Date(2025, 2, 5, 12, 7);

describe('formatPublished', () => {
  it("formats as 'MMM d, yyyy' (public cards)", () => {
    expect(formatPublished(noon)).toBe('Mar 5, 2025');
    expect(formatPublished(noon.toISOString())).toBe('Mar 5, 2025');
    expect(formatPublished(noon.getTime())).toBe('Mar 5, 2025');
  });

  it('returns an empty string for an unparseable date instead of throwing', () => {
    expect(formatPublished('not a date')).toBe('');
  });
});

describe('formatTable', () => {
  it("formats as 'PPp' (admin tables): date and time", () => {
    expect(formatTable(noon)).toBe('Mar 5, 2025, 12:07 PM');
  });

  it('returns an empty string for an unparseable date', () => {
    expect(formatTable('')).toBe('');
  });
});
