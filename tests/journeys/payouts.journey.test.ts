// Payouts through Omni's real HTTP surface (`npm start` as a child process on a fresh data folder): an
// artist splits a release 60/40 with a collaborator who signs up and accepts; the admin imports a statement
// big enough to pass the $100 minimum for both; each payee fills in the payout sandbox's hosted onboarding
// form and gives a tax form; the admin forces the payout run; the sandbox's clock moves the payouts to
// paid and both payees see them paid at GET /api/me/payouts; a third payee, whose test bank account
// refuses the money, sees the payout failed with the reason, the money back and a retry date. Their statements (JSON, CSV, PDF) add up to
// the cent, a payee gets nobody else's statement, and the Stripe Connect webhook refuses an unsigned body.
// Then /app/payouts in Chromium: the checklist before onboarding, the paid payout after, the failed one
// (desktop, 390 px).
// Amounts are worked out here in bigint nano-dollars.
import { inflateSync } from 'node:zlib';
import { myPayouts, splitsChanged, statementImport, statementJson } from '@omni/proto/api';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import type { ApiSession } from '../support/session';
import { verifiedSession } from '../support/session';
import { call, createRelease, login } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { newEmail, PASSWORD, personPage, shot, signIn, toast } from './support/people';

const JOURNEY = 'payouts';
const NANO = 1_000_000_000n;
const CENT = 10_000_000n;
let omni: Omni;
let admin: ApiSession;
let browser: Browser;
beforeAll(async () => {
  omni = await startOmni({ name: JOURNEY });
  browser = await launchBrowser();
  admin = await login(omni.url, omni.admin.email, omni.admin.password);
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await omni?.stop();
}, 120_000);

function nano(amount: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,9}))?$/.exec(amount);
  if (!m) throw new Error(`"${amount}" is not a decimal amount`);
  const value = BigInt(m[2] as string) * NANO + BigInt((m[3] ?? '').padEnd(9, '0'));
  return m[1] ? -value : value;
}
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

async function json(res: Response, what: string, status = 200): Promise<unknown> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${text}`);
  return JSON.parse(text);
}

const put = (path: string, token: string, body: unknown) =>
  call(omni.url, path, token, { method: 'PUT', body: JSON.stringify(body) });
const post = (path: string, token: string, body?: unknown) =>
  call(omni.url, path, token, {
    method: 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const payouts = async (s: ApiSession) =>
  myPayouts.parse(await json(await call(omni.url, '/api/me/payouts', s.accessToken), 'GET /api/me/payouts'));

/** The text a PDF draws (pdf-lib's content streams, deflated; strings as hex or literal). */
function pdfText(pdf: Buffer): string[] {
  const s = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of s.matchAll(/stream\r?\n/g)) {
    const start = (m.index ?? 0) + m[0].length;
    const raw = pdf.subarray(start, s.indexOf('endstream', start));
    let text: string;
    try {
      text = inflateSync(raw).toString('latin1');
    } catch {
      text = raw.toString('latin1');
    }
    for (const t of text.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
      out.push(Buffer.from(t[1] as string, 'hex').toString('latin1'));
    for (const t of text.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) out.push(t[1] as string);
  }
  return out;
}

/** Fills the payout sandbox's hosted form (as a browser posts it) with Stripe's test values. */
async function onboard(s: ApiSession, accountNumber = '000123456789') {
  const { url } = (await json(await post('/api/me/payouts/onboarding', s.accessToken), 'onboarding')) as {
    url: string;
  };
  expect(new URL(url).pathname).toMatch(/^\/payouts-sandbox\/onboard\//);
  const form = await fetch(url);
  expect(form.status).toBe(200);
  const formText = await form.text();
  expect(formText).toContain('Set up payouts');
  // What is still needed, in words (not Stripe's requirement names).
  expect(formText).toContain('Still needed: First name, Last name, Date of birth, Address, Last 4 of SSN');
  const send = (fields: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
  // A wrong routing number gets the form again, with the reason in words.
  const wrong = await send({ routing_number: '123', account_number: '000123456789' });
  expect(wrong.status).toBe(400);
  expect(await wrong.text()).toContain('Use the test routing number 110000000');
  const done = await send({
    'individual.first_name': 'Pat',
    'individual.last_name': 'Payee',
    'individual.dob.day': '1901-01-01',
    'individual.address.line1': 'address_full_match',
    'individual.ssn_last_4': '0000',
    'tos_acceptance.date': 'yes',
    routing_number: '110000000',
    account_number: accountNumber,
  });
  expect(done.status).toBe(303);
  expect(new URL(done.headers.get('location')!, omni.url).pathname).toBe('/app/payouts');
}

interface Payee {
  email: string;
  session: ApiSession;
}
let owner: Payee;
let collaborator: Payee;
/** A payee whose bank account is one of Stripe's test accounts that fail (insufficient funds). */
let unlucky: Payee;

it('a 60/40 split is paid out to both payees through the payout sandbox; statements add up to the cent', async () => {
  try {
    const ownerEmail = newEmail('payouts-owner');
    owner = { email: ownerEmail, session: await verifiedSession(omni.url, ownerEmail, PASSWORD) };
    const release = await createRelease(omni.url, owner.session, { title: 'Paid Road', stores: ['spotify'] });
    const set = splitsChanged.parse(
      await json(
        await put(`/api/releases/${release.id}/splits`, owner.session.accessToken, {
          shares: [{ email: newEmail('payouts-invited'), percent: '40' }],
        }),
        'PUT splits',
      ),
    );
    const token = new URL(set.links[0]!.url).searchParams.get('token')!;
    const collaboratorEmail = newEmail('payouts-collaborator');
    collaborator = {
      email: collaboratorEmail,
      session: await verifiedSession(omni.url, collaboratorEmail, PASSWORD),
    };
    await json(
      await post(`/api/splits/invitations/${token}/accept`, collaborator.session.accessToken),
      'accept',
    );

    // Another artist, paid alone, whose bank will refuse the money.
    const unluckyEmail = newEmail('payouts-unlucky');
    unlucky = { email: unluckyEmail, session: await verifiedSession(omni.url, unluckyEmail, PASSWORD) };
    const theirRelease = await createRelease(omni.url, unlucky.session, {
      title: 'Returned Road',
      stores: ['spotify'],
    });

    // Nothing earned yet: the checklist says why nothing is paid, in words.
    const before = await payouts(collaborator.session);
    expect(before.balance).toBe('0.00');
    expect(before.checklist.ready).toBe(false);
    expect(before.checklist.items.map((i) => [i.key, i.ok])).toEqual(
      expect.arrayContaining([
        ['tax_form', false],
        ['account', false],
        ['threshold', false],
      ]),
    );
    expect(before.minimumCents).toBe(10_000);
    expect(before.rail).toBe('sandbox');
    // The collaborator opens /app/payouts: the checklist, then the tax form and the payout account set up
    // from the page (the sandbox's hosted form and back).
    await pageBeforeOnboarding();

    // The admin runs the payout run now: nothing earned yet, nothing is paid (the
    // collaborator is set up, but has no balance).
    const early = (await json(await post('/api/admin/payouts/run', admin.accessToken), 'run')) as Record<
      string,
      unknown
    >;
    expect(early).toEqual(expect.objectContaining({ paid: 0 }));
    expect((await post('/api/admin/payouts/run', owner.session.accessToken)).status).toBe(403);

    // The admin imports this month's sales: 60/40 of $600.123456789 passes $100 for both.
    const month = new Date().toISOString().slice(0, 7);
    const amounts = ['400.123456789', '200.000000000'];
    const csv = [
      'sale_start,sale_end,reported_at,store,service_tier,territory,usage_type,isrc,upc,title,artist,quantity,amount,currency,amount_usd,fx_rate,fx_date,adjustment_type',
      ...amounts.map((a, i) =>
        [
          `${month}-01`,
          `${month}-01`,
          `${month}-02`,
          ['Spotify', 'Deezer'][i],
          '',
          ['US', 'FR'][i],
          'stream',
          release.isrc,
          '',
          'Paid Road',
          'Journey Artist',
          1000,
          a,
          'USD',
          a,
          '1',
          '',
          '',
        ].join(','),
      ),
      [
        `${month}-01`,
        `${month}-01`,
        `${month}-02`,
        'Tidal',
        '',
        'GB',
        'stream',
        theirRelease.isrc,
        '',
        'Returned Road',
        'Journey Artist',
        500,
        '150.00',
        'USD',
        '150.00',
        '1',
        '',
        '',
      ].join(','),
    ].join('\n');
    const accepted = (await json(
      await call(omni.url, '/api/admin/statements?source=omni', admin.accessToken, {
        method: 'POST',
        body: `${csv}\n`,
        headers: { 'content-type': 'application/octet-stream', 'x-file-name': `payouts-${Date.now()}.csv` },
      }),
      'POST statement',
      202,
    )) as { id: string };
    await eventually(
      async () => {
        const imp = statementImport.parse(
          await json(
            await call(omni.url, `/api/admin/statements/${accepted.id}`, admin.accessToken),
            'import',
          ),
        );
        return imp.state === 'done' ? imp : undefined;
      },
      'the statement to be imported',
      120_000,
      500,
    );
    const total = sum(amounts.map(nano));
    const [ownerBefore, theirBefore] = await eventually(
      async () => {
        const [o, c] = [await payouts(owner.session), await payouts(collaborator.session)];
        return nano(o.balance) + nano(c.balance) === total ? [o, c] : undefined;
      },
      'both balances to add up to the statement',
      60_000,
      500,
    );
    // Each line split by largest remainder (40% of it, floor, plus the leftover unit when its fraction is
    // the larger).
    const forty = (a: bigint) =>
      (a * 40n) % 100n > (a * 60n) % 100n ? (a * 40n) / 100n + 1n : (a * 40n) / 100n;
    expect(nano(theirBefore!.balance)).toBe(sum(amounts.map((a) => forty(nano(a)))));
    // The payable part is the balance rounded down to the cent.
    for (const p of [ownerBefore!, theirBefore!])
      expect(nano(p.payable)).toBe((nano(p.balance) / CENT) * CENT);

    // A minimum under the rail's is refused in words; a lower one than $100 is kept.
    const low = await put('/api/me/payouts/minimum', owner.session.accessToken, { minimumCents: 50 });
    expect(low.status).toBe(400);
    expect(((await low.json()) as { error: { message: string } }).error.message).toMatch(
      /^Choose a minimum between \$1 .* and \$10000\.$/,
    );
    const lowered = myPayouts.parse(
      await json(
        await put('/api/me/payouts/minimum', owner.session.accessToken, { minimumCents: 5_000 }),
        'minimum',
      ),
    );
    expect(lowered.minimumCents).toBe(5_000);

    // Each payee fills in the hosted form and gives a tax form (as given; a W-9 is for US persons).
    await onboard(owner.session);
    await onboard(unlucky.session, '000222222227');
    await json(
      await put('/api/me/payouts/tax-form', unlucky.session.accessToken, {
        kind: 'W-9',
        legalName: 'Una Lucky',
        country: 'US',
        certify: true,
      }),
      'W-9',
    );
    const mismatch = await put('/api/me/payouts/tax-form', owner.session.accessToken, {
      kind: 'W-9',
      legalName: 'Pat Owner',
      country: 'FR',
      certify: true,
    });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as { error: { message: string } }).error.message).toBe(
      'A W-9 is for US persons: choose W-8BEN if you are not one.',
    );
    await json(
      await put('/api/me/payouts/tax-form', owner.session.accessToken, {
        kind: 'W-9',
        legalName: 'Pat Owner',
        country: 'US',
        certify: true,
      }),
      'W-9',
    );
    // The collaborator's W-8BEN, given on the page, recorded as given.
    const w8 = await payouts(collaborator.session);
    expect(w8.taxForm).toEqual(
      expect.objectContaining({ kind: 'W-8BEN', country: 'FR', treatyClaim: 'Article 12, 0%' }),
    );
    expect(w8.withholdingNote.length).toBeGreaterThan(10);
    const ready = await eventually(
      async () => {
        const [o, c, u] = [
          await payouts(owner.session),
          await payouts(collaborator.session),
          await payouts(unlucky.session),
        ];
        return o.checklist.ready && c.checklist.ready && u.checklist.ready ? [o, c] : undefined;
      },
      'both payees to be ready (account verified through the sandbox’s events)',
      60_000,
      500,
    );
    expect(ready![0]!.account.status).toBe('verified');

    // The run pays both, once: a second run pays nobody twice.
    const run = (await json(await post('/api/admin/payouts/run', admin.accessToken), 'run')) as Record<
      string,
      unknown
    >;
    expect(run).toEqual(expect.objectContaining({ paid: 3 }));
    expect(await json(await post('/api/admin/payouts/run', admin.accessToken), 'rerun')).toEqual(
      expect.objectContaining({ paid: 0 }),
    );
    const sent = await payouts(collaborator.session);
    expect(sent.payouts.map((p) => p.state)).toEqual([expect.stringMatching(/^(pending|in_transit)$/)]);
    expect(sent.checklist.ready).toBe(false);

    // The sandbox's clock: pending → in transit → paid.
    const clock = await fetch(`${omni.url}/payouts-sandbox/clock`, {
      method: 'POST',
      body: JSON.stringify({ days: 3 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(clock.status).toBe(200);
    const paid = await eventually(
      async () => {
        const [o, c, u] = [
          await payouts(owner.session),
          await payouts(collaborator.session),
          await payouts(unlucky.session),
        ];
        return o.payouts[0]?.state === 'paid' &&
          c.payouts[0]?.state === 'paid' &&
          u.payouts[0]?.state === 'failed'
          ? [o, c, u]
          : undefined;
      },
      'two payouts to be paid and the third to fail',
      60_000,
      500,
    );

    for (const [who, before, after] of [
      [owner, ownerBefore!, paid![0]!],
      [collaborator, theirBefore!, paid![1]!],
    ] as const) {
      const payout = after.payouts[0]!;
      expect(nano(payout.amount)).toBe(nano(before.payable));
      expect(payout.failure).toBeNull();
      // What stays is the part under a cent.
      expect(nano(after.balance)).toBe(nano(before.balance) - nano(before.payable));
      expect(nano(after.balance) < CENT).toBe(true);

      expect(after.statements.map((s) => s.period)).toContain(month);
      const statement = statementJson.parse(
        await json(
          await call(omni.url, `/api/me/payouts/statements/${month}`, who.session.accessToken),
          'statement',
        ),
      );
      const income = sum(statement.income.map((r) => nano(r.amount)));
      expect(income).toBe(nano(statement.incomeTotal));
      expect(nano(statement.incomeTotal)).toBe(nano(before.balance));
      expect(statement.transfers.map((t) => [t.state, nano(t.amount)])).toEqual([
        ['paid', nano(payout.amount)],
      ]);
      expect(
        nano(statement.opening) +
          nano(statement.incomeTotal) +
          nano(statement.recoupment) -
          nano(statement.transfersTotal) +
          nano(statement.returnedTotal),
      ).toBe(nano(statement.closing));
      expect(nano(statement.closing)).toBe(nano(after.balance));

      // The CSV: the same rows, adding up to its closing balance.
      const csvRes = await call(omni.url, `/api/me/payouts/statements/${month}.csv`, who.session.accessToken);
      expect(csvRes.status).toBe(200);
      expect(csvRes.headers.get('content-type')).toMatch(/text\/csv/);
      const rows = (await csvRes.text())
        .trim()
        .split(/\r?\n/)
        .map((l) => l.split(','));
      const amountOf = (section: string) =>
        rows.filter((r) => r[0] === section).map((r) => nano(r[r.length - 1] as string));
      const csvIncome = sum(amountOf('income'));
      expect(csvIncome).toBe(nano(statement.incomeTotal));
      expect(amountOf('income_total')).toEqual([csvIncome]);
      const csvClosing =
        sum(amountOf('opening_balance')) +
        csvIncome +
        sum(amountOf('recoupment')) +
        sum(amountOf('transfer')) +
        sum(amountOf('returned'));
      expect(amountOf('closing_balance')).toEqual([csvClosing]);
      expect(csvClosing).toBe(nano(statement.closing));

      // The PDF: the same amounts, drawn.
      const pdfRes = await call(omni.url, `/api/me/payouts/statements/${month}.pdf`, who.session.accessToken);
      expect(pdfRes.status).toBe(200);
      expect(pdfRes.headers.get('content-type')).toMatch(/application\/pdf/);
      const pdf = Buffer.from(await pdfRes.arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const drawn = pdfText(pdf);
      const dollars = drawn.filter((t) => /^-?\$\d/.test(t)).map((t) => nano(t.replace('$', '')));
      const incomeLines = statement.income.map((r) => nano(r.amount));
      expect(dollars).toEqual(
        expect.arrayContaining([...incomeLines, nano(statement.incomeTotal), -nano(payout.amount)]),
      );
      expect(sum(incomeLines)).toBe(nano(statement.incomeTotal));
      expect(drawn).toContain('Closing balance');
      expect(dollars[dollars.length - 1]).toBe(nano(statement.closing));
    }

    const theirId = (collaborator.session.user as { id: string }).id;
    // The failed payout: the bank's reason in words, the money back in the balance, a retry date.
    const failed = paid![2]!;
    expect(failed.payouts[0]).toEqual(
      expect.objectContaining({ amount: '150.00', failure: expect.stringContaining('insufficient funds') }),
    );
    expect(Date.parse(failed.payouts[0]!.retryAt ?? '')).toBeGreaterThan(Date.now());
    expect(failed.balance).toBe('150.00');
    expect(failed.checklist.lastFailure).toEqual(expect.stringContaining('insufficient funds'));

    // Nobody else's statement: the owner asks for the collaborator's by any path and gets none.
    const theirs = await call(
      omni.url,
      `/api/me/payouts/statements/${month}?payeeId=${theirId}`,
      owner.session.accessToken,
    );
    const mine = statementJson.parse(await theirs.json());
    expect(nano(mine.incomeTotal)).toBe(nano(ownerBefore!.balance));
    for (const path of [
      `/api/me/payouts/statements/${theirId}/${month}`,
      `/api/payees/${theirId}/statements/${month}.csv`,
      '/api/me/payouts/statements/2020-13.csv',
    ])
      expect([403, 404]).toContain((await call(omni.url, path, owner.session.accessToken)).status);
    expect((await call(omni.url, `/api/me/payouts/statements/${month}.csv`, undefined)).status).toBe(401);

    // Stripe Connect's webhook: an unsigned or badly signed body is refused.
    const hook = (headers: Record<string, string>) =>
      fetch(`${omni.url}/api/royalties/webhooks/stripe-connect`, {
        method: 'POST',
        body: JSON.stringify({ id: 'evt_forged', type: 'payout.paid', data: { object: {} } }),
        headers: { 'content-type': 'application/json', ...headers },
      });
    const unsigned = await hook({});
    expect(unsigned.status).toBeGreaterThanOrEqual(400);
    expect(unsigned.status).toBeLessThan(500);
    const forged = await hook({ 'stripe-signature': 't=1,v1=deadbeef' });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);

    await pageAfterPayout();
    await pageAfterFailure();
  } catch (err) {
    omni.explain(err);
  }
}, 600_000);

// ---- the page ------------------------------------------------------------------------------------------

let page: Page | undefined;

async function pageBeforeOnboarding() {
  page = await personPage(browser);
  await signIn(page, omni.url, collaborator.email, PASSWORD);
  await page.goto(`${omni.url}/app/payouts`);
  await page.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor({ timeout: 30_000 });
  const checklist = page.getByTestId('payout-checklist');
  await checklist.getByText('tax form', { exact: false }).first().waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: /Set up payout account/ }).waitFor();
  await shot(page, JOURNEY, 'checklist');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, JOURNEY, 'checklist-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The tax form: refused without the certification, in words; saved with it.
  await page.getByLabel('W-8BEN (not a US person)').check();
  await page.getByLabel('Legal name').fill('Camille Collaborator');
  await page.getByLabel('Country of tax residence').fill('fr');
  await page.getByLabel('Treaty claim (optional)').fill('Article 12, 0%');
  await page.getByRole('button', { name: 'Save tax form' }).click();
  await page.getByText('Confirm that the information is correct.').waitFor();
  await page.getByLabel('I certify that the information on this form is true and correct.').check();
  await page.getByRole('button', { name: 'Save tax form' }).click();
  await toast(page, 'Tax form saved');
  await page.getByText('W-8BEN for Camille Collaborator (FR)').waitFor();

  // A minimum under the bank transfer's is refused in words, before anything is sent.
  await page.getByLabel('Minimum (USD)').fill('0.50');
  await page.getByRole('button', { name: 'Save minimum' }).click();
  await page.getByText('The lowest minimum is $1.00: the bank transfer cannot send less.').waitFor();

  // The payout account: the sandbox's hosted form, and back to the page.
  await page.getByRole('button', { name: 'Set up payout account' }).click();
  await page.waitForURL(/\/payouts-sandbox\/onboard\//, { timeout: 30_000 });
  await shot(page, JOURNEY, 'sandbox-form');
  for (const [label, value] of [
    ['First name', 'Camille'],
    ['Last name', 'Collaborator'],
    ['Date of birth', '1901-01-01'],
    ['Address', 'address_full_match'],
    ['Last 4 of SSN', '0000'],
    ['I accept the recipient terms (type yes)', 'yes'],
    ['Account number', '000123456789'],
  ] as const)
    await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await page.waitForURL(`${omni.url}/app/payouts`, { timeout: 30_000 });
  await toast(page, 'Payout account details saved');
  await page.getByText(/Status: (Ready to receive payouts|Details given)/).waitFor({ timeout: 30_000 });
}

async function pageAfterPayout() {
  const p = page!;
  await p.goto(`${omni.url}/app/payouts`);
  const history = p.getByTestId('payout-history');
  await history.getByText('Paid', { exact: true }).first().waitFor({ timeout: 30_000 });
  // The month's statement on screen, and its CSV as a download.
  await p.getByRole('button', { name: 'View', exact: true }).first().click();
  await p.getByTestId('payout-statement').getByText('Closing balance').waitFor({ timeout: 30_000 });
  const [download] = await Promise.all([
    p.waitForEvent('download'),
    p
      .getByRole('button', { name: /as CSV$/ })
      .first()
      .click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  await p.evaluate('window.scrollTo(0, 0)');
  await shot(p, JOURNEY, 'paid');
  await p.setViewportSize({ width: 390, height: 844 });
  await shot(p, JOURNEY, 'paid-390');
  // The page fits 390 px: nothing scrolls sideways.
  expect(await p.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
}

async function pageAfterFailure() {
  const p = await personPage(browser);
  await signIn(p, omni.url, unlucky.email, PASSWORD);
  await p.goto(`${omni.url}/app/payouts`);
  const history = p.getByTestId('payout-history');
  await history.getByText('Failed', { exact: true }).waitFor({ timeout: 30_000 });
  await history.getByText(/insufficient funds/).waitFor();
  await history.getByText(/Next try: /).waitFor();
  await p
    .getByTestId('payout-checklist')
    .getByText(/Your last payout failed/)
    .waitFor();
  await shot(p, JOURNEY, 'failed');
  await p.setViewportSize({ width: 390, height: 844 });
  await shot(p, JOURNEY, 'failed-390');
}
