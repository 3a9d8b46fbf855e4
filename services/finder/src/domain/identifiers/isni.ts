// ISNI: 16 characters, 15 digits and an ISO 7064 MOD 11-2 check character (X stands for 10). Printed in groups
// of four (0000 0001 2103 2683); the canonical form is the 16 characters run together.
import { checkDigitProblem, compact, digitsOf, type IdentifierCheck, invalid, valid } from './check';

export function isniCheckCharacter(fifteenDigits: string): string {
  const p = digitsOf(fifteenDigits).reduce((total, digit) => ((total + digit) * 2) % 11, 0);
  const check = (12 - p) % 11;
  return check === 10 ? 'X' : String(check);
}

export function checkIsni(text: string): IdentifierCheck {
  const code = compact(text.replace(/^ISNI:?/i, ''));
  if (code === '') return invalid('No ISNI is given.');
  if (code.length !== 16) return invalid(`An ISNI has 16 characters; "${text.trim()}" has ${code.length}.`);
  if (!/^\d{15}[\dX]$/.test(code))
    return invalid(
      `An ISNI has 15 digits and a last character that is a digit or X; "${text.trim()}" does not.`,
    );
  const expected = isniCheckCharacter(code.slice(0, 15));
  if (expected !== code[15]) return checkDigitProblem('ISNI', expected, code[15] ?? '');
  return valid(code);
}
