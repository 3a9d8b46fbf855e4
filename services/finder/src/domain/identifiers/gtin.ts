// UPC/EAN (GTIN-12/13/14): weights 3,1,3,1… from the rightmost data digit; check = (10 − sum mod 10) mod 10.
import { checkDigitProblem, compact, digitsOf, type IdentifierCheck, invalid, valid } from './check';

export function gtinCheckDigit(dataDigits: string): number {
  const sum = digitsOf(dataDigits)
    .reverse()
    .reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
}

export function checkUpc(text: string): IdentifierCheck {
  const code = compact(text.replace(/^(UPC|EAN|GTIN):?/i, ''));
  if (code === '') return invalid('No UPC is given.');
  if (!/^\d+$/.test(code)) return invalid(`A UPC/EAN has only digits; "${text.trim()}" has others.`);
  if (code.length < 12 || code.length > 14)
    return invalid(`A UPC has 12 digits (EAN 13, GTIN 14); "${text.trim()}" has ${code.length}.`);
  const expected = gtinCheckDigit(code.slice(0, -1));
  if (expected !== Number(code.slice(-1))) return checkDigitProblem('UPC', String(expected), code.slice(-1));
  return valid(code);
}
