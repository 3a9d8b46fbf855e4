// The hosted pages: checkout with Stripe's test cards, the 3-D Secure step, the customer portal and the
// clock. Server-rendered forms; no script runs on them.
import type Stripe from 'stripe';
import { periodEnd } from './calendar';
import { spaced, TEST_CARDS } from './cards';
import { html, page } from './html';
import type { SandboxPrice, SessionDoc, SubscriptionDoc } from './records';
import { currentPeriodEnd } from './subscriptions';

const PRODUCT = { pro: 'Omni Pro', finder: 'Missing Money Finder' } as const;
const money = (cents: number) => (cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`);
const date = (t: number) => `${new Date(t * 1000).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
export const planName = (p: SandboxPrice) =>
  `${PRODUCT[p.product]} ${p.interval === 'year' ? 'annual' : 'monthly'}`;

/** The card fields of the checkout form and the portal's "Update card" (the same names, the same checks). */
const cardFields = html`<label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
<div class="row"><div><label for="expiry">Expiry (MM / YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="12 / 34" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div></div>
<label for="name">Name on card</label><input id="name" name="name" autocomplete="cc-name" required>`;

export function checkoutPage(
  session: SessionDoc,
  price: SandboxPrice,
  email: string,
  error?: string,
): string {
  const id = session._id;
  const cards = TEST_CARDS.map(
    (c) => html`<tr><td><code>${spaced(c.number)}</code></td><td>${c.label}</td></tr>`,
  );
  return page(
    'Checkout',
    html`<h1>Subscribe to ${planName(price)}</h1>
<section><p class="price">${money(price.amount)} <small>per ${price.interval}</small></p>
<p>Billed to <strong>${email}</strong></p></section>
<form class="card" method="post" action="/billing-sandbox/checkout/${id}">
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
${cardFields}
<button type="submit">Pay ${money(price.amount)}</button>
<a href="${session.object.cancel_url ?? '/'}">Cancel</a>
</form>
<section><h2>Test cards</h2><p>Any future expiry date and any CVC.</p><table><tbody>${cards}</tbody></table></section>`,
  );
}

export function authenticatePage(session: SessionDoc): string {
  const action = `/billing-sandbox/checkout/${session._id}/authenticate`;
  return page(
    'Authentication',
    html`<h1>3-D Secure authentication</h1>
<section><p>Your bank asks you to confirm this payment. In the sandbox you choose the outcome.</p>
<form class="inline" method="post" action="${action}"><input type="hidden" name="result" value="complete"><button type="submit">Complete authentication</button></form>
<form class="inline" method="post" action="${action}"><input type="hidden" name="result" value="fail"><button class="secondary" type="submit">Fail authentication</button></form></section>`,
  );
}

export function closedCheckoutPage(status: 'complete' | 'expired', session?: SessionDoc): string {
  const text =
    status === 'complete'
      ? 'This checkout is already complete: the subscription was paid.'
      : 'This checkout session has expired. Start again from Omni.';
  const back =
    status === 'complete'
      ? session?.object.success_url?.replaceAll('{CHECKOUT_SESSION_ID}', session._id)
      : session?.object.cancel_url;
  return page(
    'Checkout',
    html`<h1>${status === 'complete' ? 'Checkout complete' : 'Checkout expired'}</h1>
<section><p>${text}</p>${back ? html`<p><a href="${back}">Return to Omni</a></p>` : ''}</section>`,
  );
}

export function messagePage(title: string, text: string): string {
  return page(title, html`<h1>${title}</h1><section><p>${text}</p></section>`);
}

export function portalPage(input: {
  portal: Stripe.BillingPortal.Session;
  email: string;
  /** The card saved at checkout or since (absent before any). */
  card?: { last4: string };
  subscriptions: SubscriptionDoc[];
  prices: Record<string, SandboxPrice>;
  error?: string;
}): string {
  const base = `/billing-sandbox/portal/${input.portal.id}/subscriptions`;
  const owing = input.subscriptions.some((d) => d.state === 'live' && d.dunning);
  const cardSection = html`<section><h2>Payment method</h2>
<p>${input.card ? html`Card ending <strong>${input.card.last4}</strong>` : 'No card saved.'}</p>
${owing ? html`<p class="error">Your last payment failed. Update your card: the open invoice is charged to it at once.</p>` : ''}
<form class="card" method="post" action="/billing-sandbox/portal/${input.portal.id}/card">
${cardFields}
<button type="submit">Update card</button>
</form></section>`;
  const rows = input.subscriptions.map((doc) => {
    const s = doc.object;
    const price = input.prices[doc.price];
    const action = (name: string, label: string, secondary = false, extra = html``) =>
      html`<form class="inline" method="post" action="${base}/${s.id}/${name}">${extra}<button${secondary ? html` class="secondary"` : ''} type="submit">${label}</button></form>`;
    const switches = Object.entries(input.prices)
      .filter(([id, p]) => price && id !== doc.price && p.product === price.product)
      .map(([id, p]) =>
        action(
          'switch',
          `Switch to ${p.interval === 'year' ? 'annual' : 'monthly'} (${money(p.amount)} / ${p.interval})`,
          true,
          html`<input type="hidden" name="price" value="${id}">`,
        ),
      );
    const live = doc.state === 'live';
    return html`<section><h2>${price ? planName(price) : doc.price}</h2>
<p>Status: <strong>${s.status}</strong>${s.cancel_at_period_end ? html` — cancels on ${date(currentPeriodEnd(s))}` : ''}</p>
<p>${live ? html`Current period ends ${date(currentPeriodEnd(s))}` : html`Ended ${date(s.ended_at ?? 0)}`}</p>
${
  live
    ? [
        s.cancel_at_period_end
          ? action('resume', 'Resume subscription')
          : action('cancel-at-period-end', 'Cancel at period end', true),
        action('cancel', 'Cancel now', true),
        ...switches,
      ]
    : ''
}</section>`;
  });
  return page(
    'Billing portal',
    html`<h1>Your subscriptions</h1><p>Signed in as <strong>${input.email}</strong></p>
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
${rows.length > 0 ? rows : html`<section><p>No subscriptions yet.</p></section>`}
${cardSection}
<p><a href="${input.portal.return_url ?? '/'}">Return to Omni</a> · <a href="/billing-sandbox/clock">Sandbox clock</a></p>`,
  );
}

export function clockPage(now: number, subscriptions: SubscriptionDoc[], error?: string): string {
  const button = (fields: Record<string, string>, label: string) =>
    html`<form class="inline" method="post" action="/billing-sandbox/clock/advance">${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}<button type="submit">${label}</button></form>`;
  const rows = subscriptions.map(
    (d) =>
      html`<tr><td><code>${d._id}</code></td><td>${d.object.status}${d.object.cancel_at_period_end ? ' (cancels at period end)' : ''}</td><td>${date(currentPeriodEnd(d.object))}</td><td>${d.state === 'live' ? button({ to: 'period_end', subscription: d._id }, 'Advance to its period end') : ''}</td></tr>`,
  );
  return page(
    'Clock',
    html`<h1>Sandbox clock</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<section><p>Sandbox time: <strong>${date(now)}</strong></p>
${button({ to: 'period_end' }, 'Advance to the end of the current period')} <small>(the first period end of any running subscription; a row's button reaches that one's)</small>
${button({ seconds: '86400' }, 'Advance 1 day')}
${button({ seconds: String(periodEnd(now, 'month', 1) - now) }, 'Advance 1 month')}</section>
<section><h2>Subscriptions</h2>${rows.length > 0 ? html`<table><thead><tr><th>Subscription</th><th>Status</th><th>Period ends</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>None running.</p>`}</section>`,
  );
}
