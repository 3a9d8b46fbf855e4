// ISRC: CC XXX YY NNNNN — country or special code (2 letters), registrant (3 letters or digits), year of
// reference (2 digits), designation (5 digits). There is no check digit, so only the shape can be checked.
import { compact, type IdentifierCheck, invalid, valid } from './check';

export function checkIsrc(text: string): IdentifierCheck {
  const code = compact(text.replace(/^ISRC:?/i, ''));
  if (code === '') return invalid('No ISRC is given.');
  if (code.length !== 12) return invalid(`An ISRC has 12 characters; "${text.trim()}" has ${code.length}.`);
  if (!/^[A-Z]{2}/.test(code))
    return invalid(`An ISRC starts with a two-letter country code; "${code.slice(0, 2)}" is not one.`);
  if (!/^[A-Z0-9]{3}$/.test(code.slice(2, 5)))
    return invalid(
      `Characters 3–5 of an ISRC are the registrant code (letters or digits); "${code.slice(2, 5)}" is not.`,
    );
  if (!/^\d{2}$/.test(code.slice(5, 7)))
    return invalid(`Characters 6–7 of an ISRC are the year (two digits); "${code.slice(5, 7)}" is not.`);
  if (!/^\d{5}$/.test(code.slice(7)))
    return invalid(`The last five characters of an ISRC are digits; "${code.slice(7)}" is not.`);
  return valid(code);
}
