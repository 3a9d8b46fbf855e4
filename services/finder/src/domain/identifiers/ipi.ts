// IPI name number: 11 digits, the last two check the first nine: r = (Σ dᵢ·wᵢ, weights 10..2) mod 101,
// check = (101 − r) mod 100. Societies often print it without its leading zeros (14107338 for 00014107338),
// so 6 to 10 digits are padded back to 11 (the check digits still guard them).
import { compact, digitsOf, type IdentifierCheck, invalid, valid } from './check';

export function ipiCheckDigits(nineDigits: string): string {
  const r = digitsOf(nineDigits).reduce((total, digit, index) => total + digit * (10 - index), 0) % 101;
  return String((101 - r) % 100).padStart(2, '0');
}

export function checkIpi(text: string): IdentifierCheck {
  const code = compact(text.replace(/^IPI:?/i, ''));
  if (code === '') return invalid('No IPI name number is given.');
  if (!/^\d+$/.test(code)) return invalid(`An IPI name number has only digits; "${text.trim()}" has others.`);
  if (code.length < 6 || code.length > 11)
    return invalid(`An IPI name number has 11 digits; "${text.trim()}" has ${code.length}.`);
  const padded = code.padStart(11, '0');
  const expected = ipiCheckDigits(padded.slice(0, 9));
  if (expected !== padded.slice(9))
    return invalid(
      `The last two digits of an IPI name number check the first nine: they should be ${expected}, not ${padded.slice(9)}.`,
    );
  return valid(padded);
}
