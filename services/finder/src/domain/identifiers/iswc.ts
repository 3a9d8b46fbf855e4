// ISWC: T + 9 digits + check digit; check = (10 − ((1 + Σ i·dᵢ, i = 1..9) mod 10)) mod 10. Accepts the printed
// form T-034.524.680-1 as well as T0345246801; the canonical form is the compact one.
import { checkDigitProblem, compact, digitsOf, type IdentifierCheck, invalid, valid } from './check';

export function iswcCheckDigit(nineDigits: string): number {
  const sum = digitsOf(nineDigits).reduce((total, digit, index) => total + (index + 1) * digit, 1);
  return (10 - (sum % 10)) % 10;
}

export function checkIswc(text: string): IdentifierCheck {
  const code = compact(text.replace(/^ISWC:?/i, ''));
  if (code === '') return invalid('No ISWC is given.');
  if (!code.startsWith('T')) return invalid(`An ISWC starts with the letter T; "${text.trim()}" does not.`);
  const digits = code.slice(1);
  if (!/^\d+$/.test(digits))
    return invalid(`After the T, an ISWC has only digits; "${text.trim()}" has others.`);
  if (digits.length !== 10)
    return invalid(
      `An ISWC has 10 digits after the T (9 and a check digit); "${text.trim()}" has ${digits.length}.`,
    );
  const expected = iswcCheckDigit(digits.slice(0, 9));
  if (expected !== Number(digits[9])) return checkDigitProblem('ISWC', String(expected), digits[9] ?? '');
  return valid(code);
}

/** The printed form, T-034.524.680-1, for messages. */
export const formatIswc = (normalised: string): string =>
  `T-${normalised.slice(1, 4)}.${normalised.slice(4, 7)}.${normalised.slice(7, 10)}-${normalised.slice(10)}`;
