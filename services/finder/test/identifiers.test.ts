// Identifier rules against codes published by their agencies and projects (MusicBrainz's test suite, GS1
// examples, the ISNI of a public record), each rule broken once.
import { checkIpi, checkIsni, checkIsrc, checkIswc, checkUpc } from '../src/domain/identifiers';

const problemOf = (check: { ok: boolean; problem?: string }) => (check.ok ? undefined : check.problem);

describe('ISRC', () => {
  it('accepts and normalises what people type', () => {
    expect(checkIsrc('us-s1z-99-00001')).toEqual({ ok: true, normalised: 'USS1Z9900001' });
    expect(checkIsrc('GB AYE 69 00531')).toEqual({ ok: true, normalised: 'GBAYE6900531' });
    expect(checkIsrc('QZQDU2600001')).toEqual({ ok: true, normalised: 'QZQDU2600001' });
  });
  it('names the broken part', () => {
    expect(problemOf(checkIsrc(''))).toBe('No ISRC is given.');
    expect(problemOf(checkIsrc('USS1Z99000'))).toMatch(/12 characters; "USS1Z99000" has 10/);
    expect(problemOf(checkIsrc('1SS1Z9900001'))).toMatch(/two-letter country code/);
    expect(problemOf(checkIsrc('USS_Z9900001'))).toMatch(/registrant code/);
    expect(problemOf(checkIsrc('USS1Z9X00001'))).toMatch(/year/);
    expect(problemOf(checkIsrc('USS1Z990000A'))).toMatch(/last five characters/);
  });
});

describe('ISWC', () => {
  it('accepts the printed and compact forms', () => {
    expect(checkIswc('T-034.524.680-1')).toEqual({ ok: true, normalised: 'T0345246801' });
    expect(checkIswc('T- 101.914.232-4')).toEqual({ ok: true, normalised: 'T1019142324' });
    expect(checkIswc('t0000000010')).toEqual({ ok: true, normalised: 'T0000000010' });
  });
  it('says which check digit was expected', () => {
    expect(problemOf(checkIswc('T-034.524.680-2'))).toBe(
      'The last character of this ISWC is its check digit: it should be 1, not 2.',
    );
    expect(problemOf(checkIswc('034.524.680-1'))).toMatch(/starts with the letter T/);
    expect(problemOf(checkIswc('T-034.524.68-1'))).toMatch(/has 9/);
    expect(problemOf(checkIswc('T-034.52A.680-1'))).toMatch(/only digits/);
  });
});

describe('IPI name number', () => {
  it('accepts a published IPI, with or without its leading zeros', () => {
    expect(checkIpi('00014107338')).toEqual({ ok: true, normalised: '00014107338' });
    expect(checkIpi('014107338')).toEqual({ ok: true, normalised: '00014107338' });
    expect(checkIpi('IPI 141 073 38')).toEqual({ ok: true, normalised: '00014107338' });
  });
  it('checks the mod-101 pair and the length', () => {
    expect(problemOf(checkIpi('00014107339'))).toBe(
      'The last two digits of an IPI name number check the first nine: they should be 38, not 39.',
    );
    expect(problemOf(checkIpi('12345'))).toMatch(/11 digits; "12345" has 5/);
    expect(problemOf(checkIpi('123456789012'))).toMatch(/has 12/);
    expect(problemOf(checkIpi('000141O7338'))).toMatch(/only digits/);
  });
});

describe('ISNI', () => {
  it('accepts published ISNIs, including an X check character (the ORCID documentation example)', () => {
    expect(checkIsni('0000 0001 2103 2683')).toEqual({ ok: true, normalised: '0000000121032683' });
    expect(checkIsni('0000-0002-1694-233X')).toEqual({ ok: true, normalised: '000000021694233X' });
  });
  it('checks the MOD 11-2 character and the shape', () => {
    expect(problemOf(checkIsni('0000 0001 2103 2684'))).toBe(
      'The last character of this ISNI is its check digit: it should be 3, not 4.',
    );
    expect(problemOf(checkIsni('0000 0001 2103 268'))).toMatch(/16 characters/);
    expect(problemOf(checkIsni('X000 0001 2103 2683'))).toMatch(/15 digits/);
  });
});

describe('UPC / EAN / GTIN', () => {
  it('accepts published codes of 12, 13 and 14 digits', () => {
    expect(checkUpc('036000291452')).toEqual({ ok: true, normalised: '036000291452' });
    expect(checkUpc('4006381333931')).toEqual({ ok: true, normalised: '4006381333931' });
    expect(checkUpc('04006381333931')).toEqual({ ok: true, normalised: '04006381333931' });
  });
  it('checks the weighted check digit and the length', () => {
    expect(problemOf(checkUpc('036000291453'))).toBe(
      'The last character of this UPC is its check digit: it should be 2, not 3.',
    );
    expect(problemOf(checkUpc('12345'))).toMatch(/12 digits/);
    expect(problemOf(checkUpc('03600029145A'))).toMatch(/only digits/);
  });
});
