// Stripe's test cards the sandbox knows (https://docs.stripe.com/testing), and what each does. Any other
// number is refused as Stripe's test mode refuses a real card.

export type CardBehaviour =
  | { kind: 'succeeds'; renewals: 'succeed' | 'fail' }
  | { kind: 'declined'; message: string }
  | { kind: 'authenticate' };

export interface TestCard {
  number: string;
  label: string;
  behaviour: CardBehaviour;
}

export const TEST_CARDS: TestCard[] = [
  {
    number: '4242424242424242',
    label: 'Succeeds',
    behaviour: { kind: 'succeeds', renewals: 'succeed' },
  },
  {
    number: '4000000000000002',
    label: 'Declined',
    behaviour: { kind: 'declined', message: 'Your card was declined.' },
  },
  {
    number: '4000000000009995',
    label: 'Insufficient funds',
    behaviour: { kind: 'declined', message: 'Your card has insufficient funds.' },
  },
  {
    number: '4000002500003155',
    label: 'Needs authentication (3-D Secure)',
    behaviour: { kind: 'authenticate' },
  },
  {
    number: '4000000000000341',
    label: 'Succeeds now, renewals fail',
    behaviour: { kind: 'succeeds', renewals: 'fail' },
  },
];

export const NOT_A_TEST_CARD =
  'Your card was declined. This is a test environment: use one of the test cards listed below.';
export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** "4242 4242 4242 4242" as printed on the page. */
export const spaced = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

export interface CardForm {
  number?: unknown;
  expiry?: unknown;
  cvc?: unknown;
  name?: unknown;
}

/**
 * Checks the form as Stripe's hosted page does before it charges: each field's own sentence, so the page
 * can say what to fix. `nowSeconds` is the sandbox clock (an expiry in the past of the clock is expired).
 */
export function readCard(
  form: CardForm,
  nowSeconds: number,
): { card: TestCard } | { error: string; notTestCard?: true } {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const number = text(form.number).replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number)) return { error: 'Your card number is incomplete.' };
  if (!luhn(number)) return { error: 'Your card number is invalid.' };
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(text(form.expiry));
  if (!expiry) return { error: "Your card's expiration date is incomplete (MM / YY)." };
  const month = Number(expiry[1]);
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  if (month < 1 || month > 12) return { error: "Your card's expiration month is invalid." };
  const now = new Date(nowSeconds * 1000);
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
    return { error: "Your card's expiration date is in the past." };
  if (!/^\d{3,4}$/.test(text(form.cvc))) return { error: "Your card's security code is incomplete." };
  if (!text(form.name)) return { error: 'Enter the name on the card.' };
  const card = TEST_CARDS.find((c) => c.number === number);
  if (!card) return { error: NOT_A_TEST_CARD, notTestCard: true };
  return { card };
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
