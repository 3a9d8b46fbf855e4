// The minimum payout field of /app/payouts (src/lib/payout-minimum.ts): dollars as a person types them,
// whole cents out, and the reason in words when it is not a minimum the bank transfer allows.
import { parseMinimum } from '../src/lib/payout-minimum';

it('reads dollars as typed into whole cents', () => {
  expect(parseMinimum('100', 100)).toEqual({ cents: 10_000 });
  expect(parseMinimum(' $1,000.5 ', 100)).toEqual({ cents: 100_050 });
  expect(parseMinimum('75.25', 100)).toEqual({ cents: 7_525 });
  expect(parseMinimum('1', 100)).toEqual({ cents: 100 });
});

it('says in words why a value is refused', () => {
  expect(parseMinimum('0.50', 100)).toEqual({
    error: 'The lowest minimum is $1.00: the bank transfer cannot send less.',
  });
  expect(parseMinimum('ten', 100)).toEqual({
    error: 'Write an amount in dollars, like 50 or 75.50, between $1.00 and $10,000.',
  });
  expect(parseMinimum('1.234', 100)).toHaveProperty('error');
  expect(parseMinimum('20000', 100)).toEqual({ error: 'Choose a minimum between $1.00 and $10,000.' });
});
