// Money is integer nano-units: parsing, formatting, conversion and rounding are exact and half-even.
import {
  convert,
  divRoundHalfEven,
  formatAmount,
  MoneyError,
  normalizeRate,
  parseAmount,
  sumAmounts,
  toCents,
} from '../src/domain/money';

describe('parseAmount', () => {
  it('reads plain decimals as nano-units', () => {
    expect(parseAmount('12')).toBe(12_000_000_000n);
    expect(parseAmount('-0.00789993')).toBe(-7_899_930n);
    expect(parseAmount(' +3.5 ')).toBe(3_500_000_000n);
    expect(parseAmount('.5')).toBe(500_000_000n);
    expect(parseAmount('7.')).toBe(7_000_000_000n);
    expect(parseAmount('0.000000001')).toBe(1n);
    expect(parseAmount('-0')).toBe(0n);
    expect(parseAmount('123456789012345.123456789')).toBe(123_456_789_012_345_123_456_789n);
  });

  it('rounds past nine decimals half-even', () => {
    expect(parseAmount('0.0998269974')).toBe(99_826_997n); // CD Baby's ten decimals
    expect(parseAmount('0.0000000015')).toBe(2n); // half, odd → up
    expect(parseAmount('0.0000000025')).toBe(2n); // half, even → stays
    expect(parseAmount('0.00000000250001')).toBe(3n); // above half
    expect(parseAmount('-0.0000000015')).toBe(-2n);
    expect(parseAmount('0.9999999995')).toBe(1_000_000_000n);
  });

  it('refuses exponents, separators and words with a message a person understands', () => {
    expect(() => parseAmount('1.5E-3')).toThrow(
      'The amount "1.5E-3" is written in exponent notation; write it as a plain decimal number (like 0.0015).',
    );
    expect(() => parseAmount('1,234.56')).toThrow(
      'The amount "1,234.56" has thousands separators; write it without commas (like 1234.56).',
    );
    expect(() => parseAmount('')).toThrow('The amount is empty.');
    expect(() => parseAmount('12 USD')).toThrow(MoneyError);
    expect(() => parseAmount('.')).toThrow(MoneyError);
    expect(() => parseAmount('1.2.3')).toThrow(MoneyError);
    expect(() => parseAmount('--1')).toThrow(MoneyError);
  });

  it('takes thousands separators only when asked to', () => {
    expect(parseAmount('1,234.56', { thousands: true })).toBe(1_234_560_000_000n);
    expect(parseAmount('-12,345,678', { thousands: true })).toBe(-12_345_678_000_000_000n);
    expect(parseAmount('1234.5', { thousands: true })).toBe(1_234_500_000_000n);
    expect(() => parseAmount('1,23.5', { thousands: true })).toThrow(MoneyError);
  });
});

describe('formatAmount', () => {
  it('trims trailing zeros but keeps two decimals', () => {
    expect(formatAmount(12_300_000_000n)).toBe('12.30');
    expect(formatAmount(-7_899_930n)).toBe('-0.00789993');
    expect(formatAmount(0n)).toBe('0.00');
    expect(formatAmount(1n)).toBe('0.000000001');
    expect(formatAmount(5_000_000_000n)).toBe('5.00');
  });

  it('rounds half-even to fewer decimals', () => {
    expect(formatAmount(12_345_000_000n, 2)).toBe('12.34'); // 12.345 → even
    expect(formatAmount(12_355_000_000n, 2)).toBe('12.36');
    expect(formatAmount(-12_345_000_001n, 2)).toBe('-12.35');
    expect(formatAmount(2_500_000_000n, 0)).toBe('2');
    expect(formatAmount(3_500_000_000n, 0)).toBe('4');
    expect(() => formatAmount(1n, 10)).toThrow(MoneyError);
  });

  it('round-trips every amount it prints', () => {
    const samples = [0n, 1n, -1n, 999_999_999n, 10_000_000_000n, -123_456_789_123n, 7_899_930n];
    for (let i = 0; i < 500; i += 1) samples.push(BigInt(Math.floor((Math.random() - 0.5) * 2 ** 52)) * 997n);
    for (const n of samples) expect(parseAmount(formatAmount(n))).toBe(n);
  });
});

describe('convert', () => {
  it('multiplies by a decimal rate exactly and rounds half-even to the nano', () => {
    expect(convert(100_000_000_000n, '0.79')).toBe(79_000_000_000n);
    expect(convert(342_000n, '0.79')).toBe(270_180n); // TuneCore's 0.000342 × 0.79
    expect(convert(1n, '0.5')).toBe(0n); // half → even
    expect(convert(3n, '0.5')).toBe(2n); // 1.5 → 2
    expect(convert(-3n, '0.5')).toBe(-2n);
    expect(convert(10_000_000_000n, '1.08423456789012')).toBe(10_842_345_679n);
    expect(convert(5n, '1')).toBe(5n);
  });

  it('refuses rates that are not positive plain decimals', () => {
    expect(() => convert(1n, '0')).toThrow('The exchange rate "0" is zero; a rate must be above zero.');
    expect(() => convert(1n, '-1.2')).toThrow(MoneyError);
    expect(() => convert(1n, '1e3')).toThrow(/exponent notation/);
    expect(() => convert(1n, '')).toThrow(MoneyError);
  });

  it('keeps rates in a canonical spelling', () => {
    expect(normalizeRate('0.790')).toBe('0.79');
    expect(normalizeRate('001.0')).toBe('1');
    expect(normalizeRate('+.5')).toBe('0.5');
  });
});

describe('sums and rounding', () => {
  it('sums exactly where floats would drift', () => {
    const lines = Array.from({ length: 1_000_000 }, () => parseAmount('0.00789993'));
    expect(sumAmounts(lines)).toBe(7_899_930_000_000n);
    expect(formatAmount(sumAmounts(lines))).toBe('7899.93');
  });

  it('rounds to cents half-even', () => {
    expect(toCents(parseAmount('12.345'))).toBe(1234n);
    expect(toCents(parseAmount('12.355'))).toBe(1236n);
    expect(toCents(parseAmount('12.3450001'))).toBe(1235n);
    expect(toCents(parseAmount('-0.005'))).toBe(0n);
    expect(toCents(parseAmount('-0.015'))).toBe(-2n);
    expect(divRoundHalfEven(7n, -2n)).toBe(-4n);
    expect(() => divRoundHalfEven(1n, 0n)).toThrow(MoneyError);
  });
});
