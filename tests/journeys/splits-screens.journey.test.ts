// Splits as people use them, in Chromium against `npm start` (a child process on a fresh data folder): an
// owner opens their release's Splits tab, sees a share over 100% refused in words, gives 40% of the track to
// an address with no Omni account and keeps the 60% shown as they type; the invitee finds the mail (sent by
// identity from royalties' split.invitation event) in the dev mailbox, follows its link, creates an account
// from the invitation page, confirms it, comes back and accepts; the owner sees the invitation accepted and
// 60/40, the invitee sees their 40% on the release and their earnings page. Screens at 1280 and 390 px.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { mailpitFor, mailpitMail } from '../support/mailpit';
import { verifiedSession } from '../support/session';
import { createRelease } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { followMailedLink, newEmail, PASSWORD, personPage, shot, signIn, toast } from './support/people';

const PHONE = { width: 390, height: 844 };
let omni: Omni;
let browser: Browser;

beforeAll(async () => {
  omni = await startOmni({ name: 'splits-screens' });
  browser = await launchBrowser();
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await omni?.stop();
}, 120_000);

/**
 * The newest mail to `email` whose links carry `param` — its href and its text: from Mailpit on the cluster
 * (which has no dev mailbox), else read from the dev mailbox page.
 */
async function mailed(page: Page, email: string, param: string): Promise<{ link: string; text: string }> {
  const mailpit = mailpitFor.get(omni.url);
  if (mailpit) return mailpitMail(mailpit, email, param);
  const link = page.locator(`article a[href*="${param}="]`).first();
  await eventually(
    async () => {
      await page.goto(`${omni.url}/dev/mailbox?to=${encodeURIComponent(email)}`);
      return (await link.count()) > 0 ? true : undefined;
    },
    `a mail to ${email} with a ?${param}= link`,
    60_000,
    500,
  );
  const article = page.locator('article').filter({ has: page.locator(`a[href*="${param}="]`) });
  // biome-ignore lint/performance/useDomNodeTextContent: the mail as a person reads it, lines apart
  return { link: (await link.getAttribute('href')) ?? '', text: (await article.first().innerText()) ?? '' };
}

it('an owner sets 60/40 and invites a new address; the invitee signs up from the mailed link and accepts; both see their shares', async () => {
  const ownerEmail = newEmail('split-owner');
  const owner = await verifiedSession(omni.url, ownerEmail, PASSWORD);
  const release = await createRelease(omni.url, owner, { title: 'Split Road', stores: ['spotify'] });
  const invitee = newEmail('split-invitee');

  // The owner: the release's Splits tab.
  const ownerPage = await personPage(browser);
  await signIn(ownerPage, omni.url, ownerEmail, PASSWORD);
  await ownerPage.goto(`${omni.url}/release/${release.id}?tab=splits`);
  const editor = ownerPage.getByTestId('splits-editor');
  await editor.waitFor({ timeout: 30_000 });
  await editor.getByLabel('Applies to').selectOption({ label: 'Only “Split Road”' });
  await editor.getByLabel('Email', { exact: true }).fill(invitee);
  await editor.getByLabel('Share %', { exact: true }).fill('140');
  await ownerPage
    .getByTestId('splits-error')
    .getByText('Shares must add up to 100% at most; these add up to 140%, 40% too much.')
    .waitFor();
  await editor.getByLabel('Share %', { exact: true }).fill('40');
  await ownerPage.getByTestId('owner-remainder').getByText('60%').waitFor();
  expect(await ownerPage.getByTestId('splits-error').count()).toBe(0);
  await editor.getByRole('button', { name: 'Save splits' }).click();
  await toast(ownerPage, 'Splits saved', `We emailed an invitation to ${invitee.toLowerCase()}.`);
  const trackTable = ownerPage.getByTestId('split-table').filter({ hasText: 'Split Road' }).nth(1);
  await trackTable.getByText('40%').waitFor();
  await trackTable.getByText('60%').waitFor();
  await shot(ownerPage, 'splits', 'owner-splits-tab');

  // The invitee: the mail identity sent, its link, an account made from the invitation page.
  const inviteePage = await personPage(browser);
  const { link, text } = await mailed(inviteePage, invitee, 'token');
  expect(new URL(link).pathname).toBe('/splits/invitation');
  expect(text).toContain('invites you to a share of "Split Road"');
  expect(text).toContain('40% of "Split Road" on "Split Road"');
  await inviteePage.goto(link);
  const card = inviteePage.getByTestId('invitation-card');
  await card
    .getByText(`${ownerEmail.toLowerCase()} invites you to a share of “Split Road”`)
    .waitFor({ timeout: 30_000 });
  await card.getByTestId('invitation-shares').getByText('40%').waitFor();
  await inviteePage.setViewportSize(PHONE);
  await shot(inviteePage, 'splits', 'invitation-signed-out-390');
  await inviteePage.setViewportSize({ width: 1280, height: 900 });
  await card.getByRole('tab', { name: 'Create an account' }).click();
  await card.getByLabel('Email', { exact: true }).fill(invitee);
  await card.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await card.getByRole('button', { name: 'Create my account' }).click();
  await inviteePage.getByTestId('signup-done').waitFor({ timeout: 30_000 });
  await followMailedLink(inviteePage, omni.url, invitee, 'verify');
  await inviteePage.waitForURL(`${omni.url}/app`, { timeout: 30_000 });

  // Back to the invitation link: accept.
  await inviteePage.goto(link);
  await card.getByRole('button', { name: 'Accept my share' }).click();
  await toast(inviteePage, 'Share accepted');
  await inviteePage.getByTestId('invitation-accepted').waitFor();
  await shot(inviteePage, 'splits', 'invitation-accepted');
  // The link is spent: opened again it says so in words.
  await inviteePage.goto(link);
  await inviteePage.getByText('This invitation link no longer works').waitFor({ timeout: 30_000 });

  // The invitee sees their 40% on the release (only theirs) and the earnings page.
  await inviteePage.goto(`${omni.url}/release/${release.id}`);
  const theirs = inviteePage.getByTestId('splits-panel');
  await theirs.getByText('40%').first().waitFor({ timeout: 30_000 });
  expect(await theirs.getByText(ownerEmail.toLowerCase()).count()).toBe(0);
  expect(await theirs.getByText('60%').count()).toBe(0);
  await inviteePage.goto(`${omni.url}/app/earnings`);
  await inviteePage.getByTestId('earnings-balance').getByText('$0.00').waitFor({ timeout: 30_000 });
  await inviteePage.setViewportSize(PHONE);
  await shot(inviteePage, 'splits', 'earnings-390');

  // The owner: the invitation accepted, 60/40 on the track; /app's Collaborators card links to earnings.
  await ownerPage.reload();
  await ownerPage
    .getByTestId('invitation-row')
    .filter({ hasText: invitee.toLowerCase() })
    .getByText('Accepted')
    .waitFor({ timeout: 30_000 });
  const table = ownerPage.getByTestId('split-table').filter({ hasText: 'Split Road' }).nth(1);
  expect(await table.getByTestId('split-share').allInnerTexts()).toEqual([
    expect.stringContaining('60%'),
    expect.stringContaining('40%'),
  ]);
  await ownerPage.setViewportSize(PHONE);
  await shot(ownerPage, 'splits', 'owner-splits-tab-390');
  await ownerPage.goto(`${omni.url}/app`);
  const collaborators = ownerPage.getByTestId('stat-card').filter({ hasText: 'Collaborators' });
  await collaborators.getByText('1', { exact: true }).waitFor({ timeout: 30_000 });
  await collaborators.getByTestId('earnings-link').click();
  await ownerPage.waitForURL(`${omni.url}/app/earnings`);
}, 300_000);
