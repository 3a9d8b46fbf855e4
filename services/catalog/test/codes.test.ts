// ISRC and UPC shapes and the GS1 check digit, against codes whose check digits are published.
import { formatIsrc, generateUpc, gs1CheckDigit, isValidUpc, normalizeIsrc } from '../src/domain/codes';
import { PLATFORM_KEYS, PRESELECTED_KEYS, resolveStores } from '../src/domain/platforms';

describe('GS1 check digit', () => {
  it('matches known codes', () => {
    expect(gs1CheckDigit('03600029145')).toBe(2); // UPC-A 036000291452
    expect(gs1CheckDigit('400638133393')).toBe(1); // EAN-13 4006381333931
    expect(gs1CheckDigit('0400638133393')).toBe(1); // the same EAN-13 padded to GTIN-14
    expect(isValidUpc('036000291452')).toBe(true);
    expect(isValidUpc('036000291453')).toBe(false);
    expect(isValidUpc('04006381333931')).toBe(true);
    expect(isValidUpc('04006381333932')).toBe(false);
    expect(isValidUpc('12345')).toBe(false);
  });

  it('generates 899999 + 7 digits + a valid check digit', () => {
    for (let i = 0; i < 200; i++) {
      const upc = generateUpc();
      expect(upc).toMatch(/^899999\d{8}$/);
      expect(isValidUpc(upc)).toBe(true);
    }
  });
});

describe('ISRC', () => {
  it('formats QZQDU + year + five-digit sequence and refuses a sequence out of range', () => {
    expect(formatIsrc('26', 1)).toBe('QZQDU2600001');
    expect(formatIsrc('26', 99_999)).toBe('QZQDU2699999');
    expect(() => formatIsrc('26', 100_000)).toThrow(RangeError);
    expect(() => formatIsrc('26', 0)).toThrow(RangeError);
  });

  it('normalizes what people type and refuses malformed codes', () => {
    expect(normalizeIsrc('us-s1z-99-00001')).toBe('USS1Z9900001');
    expect(normalizeIsrc('QZQDU2600001')).toBe('QZQDU2600001');
    expect(normalizeIsrc('QZQDU26000')).toBeUndefined();
    expect(normalizeIsrc('1ZQDU2600001')).toBeUndefined();
  });
});

describe('platforms', () => {
  it('has the 142 keys, 20 preselected, and none chosen means all', () => {
    expect(PLATFORM_KEYS).toHaveLength(142);
    expect(PRESELECTED_KEYS).toEqual(PLATFORM_KEYS.slice(0, 20));
    expect(resolveStores([]).stores).toEqual(PLATFORM_KEYS);
    expect(resolveStores(['tidal', 'spotify', 'tidal', 'nope'])).toEqual({
      stores: ['spotify', 'tidal'],
      unknown: ['nope'],
    });
  });
});
