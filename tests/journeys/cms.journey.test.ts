// The OMNI CMS on Omni started as `npm start` starts it: the admin (password from initial-admin.txt) makes a
// contributor link on /admin/links; someone with no account opens it in another browser, signs in with the
// magic link the dev mailbox shows (the account is made on first use), submits a song through the link's
// audio release form; the admin approves it in /admin/moderation, and the song shows on /music.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { wav } from '../support/media';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { followMailedLink, newEmail, personPage, shot, signIn, toast } from './support/people';

const JOURNEY = 'cms';
let omni: Omni;
let browser: Browser;
let fixtures: string;

beforeAll(async () => {
  fixtures = mkdtempSync(join(tmpdir(), 'omni-journey-cms-files-'));
  writeFileSync(join(fixtures, 'night swim.wav'), wav(2, { tone: true }));
  omni = await startOmni({ name: JOURNEY });
  browser = await launchBrowser();
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await omni?.stop();
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
}, 120_000);

it('admin makes a link → an outsider signs in by magic link, submits a song → admin approves → on /music', async () => {
  const started = Date.now();
  const admin = await personPage(browser);
  await admin.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: omni.url });
  const outsider = await personPage(browser);
  const title = `Night Swim ${Date.now()}`;
  try {
    // 1. The admin's link for the Music page.
    await signIn(admin, omni.url, omni.admin.email, omni.admin.password);
    await admin.goto(`${omni.url}/admin/links`);
    await admin.getByRole('heading', { name: 'Contributor Links' }).waitFor({ timeout: 30_000 });
    await admin.getByRole('button', { name: 'Generate Upload Link' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Generate Upload Link' });
    await admin.getByRole('combobox', { name: 'Page *' }).click();
    await admin.getByRole('option', { name: 'Music', exact: true }).click();
    await dialog.getByRole('button', { name: 'Generate Link' }).click();
    await toast(admin, 'Link created and copied to clipboard!');
    const link = await admin.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    );
    expect(link).toMatch(/\/upload\?token=[A-Za-z0-9_-]{43}$/);
    expect(new URL(link).origin).toBe(omni.url);
    await shot(admin, JOURNEY, 'link');

    // 2. Someone with no account, in another browser: the magic link makes the account on first use.
    const email = newEmail('outsider');
    await outsider.goto(link);
    await outsider.getByTestId('link-summary').getByText('Music').waitFor({ timeout: 30_000 });
    await outsider.getByTestId('uploader-session').getByText('Not signed in').waitFor();
    await shot(outsider, JOURNEY, 'outsider-link');
    await outsider.getByLabel('Email', { exact: true }).fill(email);
    await outsider.getByRole('button', { name: 'Send Magic Link' }).click();
    await followMailedLink(outsider, omni.url, email, 'magic');
    await outsider.getByTestId('uploader-session').getByText(email).waitFor({ timeout: 30_000 });
    expect(new URL(outsider.url()).searchParams.get('token')).toBe(new URL(link).searchParams.get('token'));

    // 3. The song, through the link's audio release form.
    await outsider.mouse.move(0, 0);
    await outsider.getByLabel('Title', { exact: true }).fill(title);
    await outsider.getByLabel('Artist', { exact: true }).fill('Outside Contributor');
    await outsider.getByLabel('Audio file', { exact: true }).setInputFiles(join(fixtures, 'night swim.wav'));
    await outsider.getByRole('button', { name: 'Submit release' }).click();
    // The page lists what was sent with its code (a one-use link, the default, is spent by it).
    await outsider
      .getByTestId('submitted-releases')
      .getByText(/^OMNI\d{7}$/)
      .waitFor({ timeout: 60_000 });
    // Spending the link's one use is the contributor's success: said as such, never as a red refusal.
    await outsider.getByTestId('link-done').getByText('Thank you: your submission is in.').waitFor();
    expect(await outsider.getByTestId('link-refusal').count()).toBe(0);
    await shot(outsider, JOURNEY, 'outsider-submitted');

    // 4. The admin approves it in moderation.
    await admin.goto(`${omni.url}/admin/moderation`);
    await admin.getByRole('heading', { name: 'Moderation Queue' }).waitFor({ timeout: 30_000 });
    const row = admin.getByTestId('asset-row').filter({ hasText: title });
    await row.waitFor({ timeout: 30_000 });
    await shot(admin, JOURNEY, 'moderation');
    await row.getByRole('button', { name: `Approve ${title}` }).click();
    await toast(admin, 'Asset published');

    // 5. On /music for anyone.
    const visitor = await personPage(browser);
    try {
      await eventually(
        async () => {
          await visitor.goto(`${omni.url}/music`);
          return visitor
            .getByTestId('asset-card')
            .filter({ hasText: title })
            .waitFor({ timeout: 5_000 })
            .then(() => true);
        },
        `'${title}' on /music`,
        60_000,
      );
      await shot(visitor, JOURNEY, 'music');
    } finally {
      await visitor.context().close();
    }
    process.stdout.write(`cms journey: ${Math.round((Date.now() - started) / 1000)} s\n`);
  } catch (err) {
    await shot(admin, JOURNEY, 'failed-admin').catch(() => undefined);
    await shot(outsider, JOURNEY, 'failed-outsider').catch(() => undefined);
    omni.explain(err);
  } finally {
    await admin.context().close();
    await outsider.context().close();
  }
}, 600_000);
