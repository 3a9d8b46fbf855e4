// The payout sandbox's hosted pages under /payouts-sandbox/ (the gateway forwards that prefix to
// royalties' HTTP in embedded mode, for callers on this machine only): the onboarding form, which asks
// for what the account still needs (requirements.currently_due) and may be left half done, and the
// clock, which moves payouts forward by days. Plain forms, no script; bad input gets the form again with
// the reason.
import { type Logger, onlyThisMachine } from '@omni/platform';
import express, { type Response, Router } from 'express';
import {
  dueOf,
  FAILING_ACCOUNTS,
  GOOD_ACCOUNT,
  PREFIX,
  ROUTING_OK,
  type SandboxAccountDoc,
  SandboxFormError,
} from './records';

export const SANDBOX_LOCAL_ONLY = 'The payout sandbox answers only on the machine Omni runs on.';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CSS = `body{font:15px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1b1f}
.banner{background:#fff4d6;border:1px solid #e0b84d;padding:.5rem .75rem;border-radius:6px}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}input{width:100%;padding:.45rem;font:inherit}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit;background:#3b3bd6;color:#fff;border:0;border-radius:6px}
.error{color:#a11;font-weight:600}.hint{color:#555;font-size:.9em}`;

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<link rel="stylesheet" href="${PREFIX}/sandbox.css"></head><body>
<p class="banner">Payout sandbox: a test environment. No money moves and no identity is checked.</p>${body}</body></html>`;
}

const LABELS: Record<string, [string, string]> = {
  'individual.first_name': ['First name', ''],
  'individual.last_name': ['Last name', ''],
  'individual.dob.day': ['Date of birth', 'Test value: 1901-01-01'],
  'individual.address.line1': ['Address', 'Test value: address_full_match'],
  'individual.ssn_last_4': ['Last 4 of SSN', 'Test value: 0000'],
  'tos_acceptance.date': ['I accept the recipient terms (type yes)', ''],
};

/** A requirement as a person reads it ("Last name", "Bank account"), not Stripe's name for it. */
const needWords = (d: string) =>
  d === 'external_account'
    ? 'Bank account'
    : d === 'tos_acceptance.date'
      ? 'Accepting the terms'
      : (LABELS[d]?.[0] ?? d);

function formPage(linkId: string, a: SandboxAccountDoc, error = '') {
  const due = dueOf(a);
  const fields = due
    .filter((d) => d !== 'external_account')
    .map((d) => {
      const [label, hint] = LABELS[d] ?? [d, ''];
      return `<label for="${esc(d)}">${esc(label)}</label><input id="${esc(d)}" name="${esc(d)}">${hint ? `<span class="hint">${esc(hint)}</span>` : ''}`;
    })
    .join('');
  const failing = Object.entries(FAILING_ACCOUNTS)
    .map(([n, code]) => `${n} (${code})`)
    .join(', ');
  const bank = `<label for="routing_number">Routing number</label><input id="routing_number" name="routing_number" value="${ROUTING_OK}">
<label for="account_number">Account number</label><input id="account_number" name="account_number">
<span class="hint">${GOOD_ACCOUNT} is paid; these fail their payouts: ${esc(failing)}.</span>`;
  return page(
    'Set up payouts',
    `<h1>Set up payouts</h1>${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<p>Still needed: ${due.length ? esc(due.map(needWords).join(', ')) : 'nothing'}. You may save part now and finish later.</p>
<form method="post" action="${PREFIX}/onboard/${esc(linkId)}">${fields}
${due.includes('external_account') ? bank : `<p>Bank account on file. Change it:</p>${bank}`}
<button type="submit">Save and continue</button></form>`,
  );
}

export interface RouterDeps {
  links: {
    findById(id: string): Promise<{ accountId: string; returnUrl: string; refreshUrl: string } | null>;
  };
  accounts: { findById(id: string): Promise<SandboxAccountDoc | null> };
  complete(accountId: string, fields: Record<string, string>): Promise<string[]>;
  advance(seconds: number): Promise<void>;
  logger: Logger;
}

export function sandboxRouter(d: RouterDeps): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });
  const send = (res: Response, status: number, body: string) =>
    res.status(status).set('Cache-Control', 'no-store').type('html').send(body);
  router.use(PREFIX, onlyThisMachine(SANDBOX_LOCAL_ONLY));
  router.get(`${PREFIX}/sandbox.css`, (_req, res) => {
    res.type('css').send(CSS);
  });
  router.get(`${PREFIX}/onboard/:link`, async (req, res) => {
    const link = await d.links.findById(String(req.params.link));
    const a = link && (await d.accounts.findById(link.accountId));
    if (!link || !a) return send(res, 404, page('Link not found', '<h1>This link is not valid</h1>'));
    send(res, 200, formPage(String(req.params.link), a));
  });
  router.post(`${PREFIX}/onboard/:link`, form, async (req, res) => {
    const id = String(req.params.link);
    const link = await d.links.findById(id);
    if (!link) return send(res, 404, page('Link not found', '<h1>This link is not valid</h1>'));
    try {
      await d.complete(link.accountId, (req.body ?? {}) as Record<string, string>);
    } catch (err) {
      if (!(err instanceof SandboxFormError)) throw err;
      const a = (await d.accounts.findById(link.accountId))!;
      return send(res, 400, formPage(id, a, err.message));
    }
    res.redirect(303, link.returnUrl);
  });
  router.get(`${PREFIX}/clock`, (_req, res) =>
    send(
      res,
      200,
      page(
        'Sandbox clock',
        `<h1>Sandbox clock</h1><p>Payouts go in transit a day after they are made and arrive a day later.</p>
<form method="post" action="${PREFIX}/clock"><label for="days">Move forward by days</label>
<input id="days" name="days" value="1"><button type="submit">Advance</button></form>`,
      ),
    ),
  );
  router.post(`${PREFIX}/clock`, form, express.json({ limit: '4kb' }), async (req, res) => {
    const days = Number((req.body as { days?: unknown })?.days);
    if (!Number.isFinite(days) || days <= 0 || days > 366)
      return send(res, 400, page('Sandbox clock', '<p class="error">Days: a number from 0 to 366.</p>'));
    await d.advance(days * 86_400);
    d.logger.info({ days }, 'payout sandbox: clock advanced');
    if (req.is('json')) return void res.json({ advancedDays: days });
    res.redirect(303, `${PREFIX}/clock`);
  });
  return router;
}
