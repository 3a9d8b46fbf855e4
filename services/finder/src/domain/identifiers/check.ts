// What every identifier validator answers: the code in its one canonical form, or a sentence a person can act on.
export type IdentifierCheck = { ok: true; normalised: string } | { ok: false; problem: string };

export const valid = (normalised: string): IdentifierCheck => ({ ok: true, normalised });
export const invalid = (problem: string): IdentifierCheck => ({ ok: false, problem });

/** What people type between the parts of a code (spaces, hyphens, dots) carries no meaning: drop it. */
export function compact(text: string): string {
  return text.replace(/[\s\-.\u2010-\u2015]/g, '').toUpperCase();
}

export const digitsOf = (text: string): number[] => [...text].map(Number);

export function checkDigitProblem(kind: string, expected: string, found: string): IdentifierCheck {
  return invalid(
    `The last character of this ${kind} is its check digit: it should be ${expected}, not ${found}.`,
  );
}
