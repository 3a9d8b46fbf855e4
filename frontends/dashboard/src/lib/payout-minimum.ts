// The minimum payout as the payee types it on /app/payouts, checked before it is sent (the server checks
// the same bounds again and says so in its own words).

/**
 * A minimum typed in dollars ("50", "50.00", "$1,000") as whole cents, or the reason it is not one, in
 * words. The bounds are the server's (it checks them again).
 */
export function parseMinimum(
  text: string,
  railMinimumCents: number,
  maxCents = 1_000_000,
): { cents: number } | { error: string } {
  const clean = text.replace(/[$,\s]/g, '');
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(clean);
  const range = `between $${(railMinimumCents / 100).toFixed(2)} and $${(maxCents / 100).toLocaleString('en-US')}`;
  if (!m) return { error: `Write an amount in dollars, like 50 or 75.50, ${range}.` };
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (cents < railMinimumCents)
    return {
      error: `The lowest minimum is $${(railMinimumCents / 100).toFixed(2)}: the bank transfer cannot send less.`,
    };
  if (cents > maxCents) return { error: `Choose a minimum ${range}.` };
  return { cents };
}
