// What Omni sells must exist (issue 21 §3.13, §3.14), in a real browser: the Pro card says what Pro includes
// today and marks each feature not built yet 'Coming soon'; so do the marketing feature cards, the support
// articles about payouts, splits and KYC (the failed-payment article stays: those mails are built), and the
// dashboard's cards; and no page points at a demo video that does not exist.
import type { Locator, Page } from 'playwright-core';
import { waitForLivePage } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('honest-copy', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
const pages = suite.keepPages();

async function open(path: string, width = 1280): Promise<Page> {
  const page = await suite.newPage({ viewport: { width, height: 900 } });
  pages.push(page);
  await page.goto(`${suite.url}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await waitForLivePage(page);
  return page;
}

/** The plan lines of a card as [text, coming soon?]. */
async function planLines(card: Locator): Promise<[string, boolean][]> {
  const items = await card.getByRole('listitem').all();
  return Promise.all(
    items.map(async (item) => [
      (await item.innerText()).replace(/\s*Coming soon\s*$/, '').trim(),
      (await item.getAttribute('data-coming-soon')) === 'true' &&
        (await item.innerText()).includes('Coming soon'),
    ]),
  );
}

// Analytics is live for every account (/app/analytics): a Free line, not a Pro promise.
const FREE_LINES: [string, boolean][] = [
  ['Delivery to 142 stores', false],
  ['100% of your royalties', false],
  ['Catalog management for singles, EPs and albums', false],
  ['Free ISRC and UPC codes', false],
  ['Streaming and earnings analytics by store, territory and month', false],
  ['Splits with collaborators, recoupment and payouts every 30 days', false],
];

const PRO_LINES: [string, boolean][] = [
  ['Everything in Free', false],
  ['Roles for your collaborators', true],
  ['AI-written marketing copy for your releases', true],
];

describe('the Free card lists analytics; the Pro card says what Pro includes today and what is coming', () => {
  for (const path of ['/pricing', '/']) {
    it(`on ${path}`, async () => {
      const page = await open(path);
      const pro = page.getByTestId('pro-plan');
      await pro.scrollIntoViewIfNeeded();
      expect(await planLines(page.getByTestId('free-plan'))).toEqual(FREE_LINES);
      expect(await planLines(pro)).toEqual(PRO_LINES);
      expect(await pro.innerText()).not.toMatch(/analytics/i);
      expect(await pro.getByTestId('pro-today').innerText()).toContain(
        'Today Pro includes everything in Free and nothing more yet.',
      );
      await pro.screenshot({
        path: `${__dirname}/../.artifacts/honest-copy-pro-card${path.replace(/\W/g, '-')}.png`,
      });
    });
  }
});

describe('feature cards mark what is not built yet', () => {
  /** Whether the feature card titled `title` says 'Coming soon' (and is marked so). */
  const comingSoon = async (page: Page, title: string) => {
    const card = page
      .getByTestId('feature-card')
      .filter({ has: page.getByRole('heading', { name: new RegExp(`^${title}( Coming soon)?$`) }) });
    expect([title, await card.count()]).toEqual([title, 1]);
    const marked = (await card.getAttribute('data-coming-soon')) === 'true';
    const says = (await card.innerText()).includes('Coming soon');
    expect([title, marked]).toEqual([title, says]);
    return marked;
  };
  it('on the home page: teamwork and monetization; distribution and analytics are real', async () => {
    const page = await open('/');
    expect(await comingSoon(page, 'Teamwork')).toBe(true);
    expect(await comingSoon(page, 'Monetization')).toBe(false);
    expect(await comingSoon(page, 'Distribution')).toBe(false);
    expect(await comingSoon(page, 'Analytics')).toBe(false);
    expect(await comingSoon(page, 'Core Feature')).toBe(false);
  });
  it('on /features, /artists, /labels and /managers', async () => {
    const checks: [string, string[], string[]][] = [
      ['/features', ['Control'], ['Royalties and payouts', 'Distribution engine', 'Catalog management']],
      ['/artists', [], ['Upload', 'Metadata checks', 'Earnings tracking']],
      ['/labels', ['Sub-labels', 'Roll-up analytics'], []],
      ['/managers', ['Portfolio dashboards', 'Permission scoping', 'Exportable summaries'], []],
      [
        '/security',
        ['Identity verification', 'Rights protection'],
        ['Signed upload links', 'Data protection'],
      ],
    ];
    for (const [path, coming, real] of checks) {
      const page = await open(path);
      for (const title of coming)
        expect([path, title, await comingSoon(page, title)]).toEqual([path, title, true]);
      for (const title of real)
        expect([path, title, await comingSoon(page, title)]).toEqual([path, title, false]);
    }
  });
});

describe('the pricing FAQ answers how payouts and splits work now that they exist', () => {
  it('answers the payout and collaborator questions plainly first', async () => {
    const page = await open('/pricing');
    for (const [question, opening] of [
      ['When do I get paid?', 'Every 30 days, once your balance reaches $100'],
      ['Can I pay collaborators who don’t have an Omni account?', 'Yes. Add them to a release’s split'],
    ] as const) {
      await page.getByRole('button', { name: question }).click();
      await page.getByText(opening).waitFor();
    }
  });
});

describe('support articles say when what they describe has not shipped', () => {
  const articles: [string, string, boolean][] = [
    // Payouts and splits shipped (issue 26), and identity is verified in the payout account's setup.
    ['Royalties', 'When and how you get paid', false],
    ['Royalties', 'Sharing earnings with collaborators', false],
    ['Compliance', 'Identity verification (KYC)', false],
    // Failed-payment mails are built (issue 21 §3.2): that article stays as it is.
    ['Billing', 'Failed payments', false],
  ];
  for (const [category, title, coming] of articles) {
    it(title, async () => {
      const page = await open('/support');
      await page.getByRole('button', { name: new RegExp(`^${category}`) }).click();
      await page
        .getByTestId('doc-list')
        .getByRole('button', { name: new RegExp(`^${title.replace(/[()]/g, '\\$&')}`) })
        .click();
      const reader = page.getByTestId('doc-reader');
      await reader.getByRole('heading', { name: title }).waitFor();
      expect(await reader.getByTestId('doc-coming-soon').count()).toBe(coming ? 1 : 0);
      if (coming) expect(await reader.getByTestId('doc-coming-soon').innerText()).toMatch(/^Coming soon: /);
    });
  }
});

describe('no demo video that does not exist', () => {
  for (const path of ['/', '/demo']) {
    it(`${path} links to no video search and offers the live walkthrough`, async () => {
      const page = await open(path);
      const hrefs = await page
        .locator('a[href]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs.filter((href) => /youtube|vimeo/i.test(href ?? ''))).toEqual([]);
      expect(await page.getByText(/Watch the demo/).count()).toBe(0);
    });
  }
});

describe('the dashboard', () => {
  it('links View Analytics and Manage Splits to their live pages and sells Pro for what it is', async () => {
    const page = await suite.newPage();
    pages.push(page);
    await storeSession(page, suite.url, await verifiedSession(suite.url, `copy-${Date.now()}@example.com`));
    await page.goto(`${suite.url}/app`);
    const upgrade = page.getByTestId('subscription-card');
    await upgrade.getByText('today it adds nothing to Free', { exact: false }).waitFor();
    expect(await upgrade.innerText()).not.toMatch(/priority delivery|advanced analytics/i);
    const actions = page.getByRole('region', { name: 'Quick actions' });
    const titles = await actions.getByRole('heading', { level: 3 }).allInnerTexts();
    expect(titles.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'Upload Release',
      'View Analytics',
      'Manage Splits',
    ]);
    expect(await actions.getByRole('link', { name: 'View Analytics' }).getAttribute('href')).toBe(
      '/app/analytics',
    );
    expect(await actions.getByRole('link', { name: 'Manage Splits' }).getAttribute('href')).toBe(
      '/app/splits',
    );
    await suite.shot(page, 'dashboard');
  });
});
