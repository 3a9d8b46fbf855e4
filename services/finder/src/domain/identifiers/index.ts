export type { IdentifierCheck } from './check';
export { checkUpc, gtinCheckDigit } from './gtin';
export { checkIpi, ipiCheckDigits } from './ipi';
export { checkIsni, isniCheckCharacter } from './isni';
export { checkIsrc } from './isrc';
export { checkIswc, formatIswc, iswcCheckDigit } from './iswc';
