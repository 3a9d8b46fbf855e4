// With PUBLIC_URL unset, every address Omni hands out follows the port the gateway really listens on: the
// start banner, the links in verification, magic-link and reset mails, signed upload links, and the
// embedded issuer (so the tokens it signs still verify). Once through the binary as `npm start` runs it
// (HTTP_PORT chosen), once in-process on a port the OS picks (HTTP_PORT unset, as OMNI_RANDOM_PORTS does).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Platform, startPlatform } from '@omni/platform';
import { MODULES } from '@omni/server/src/modules';
import { type PlatformProcess, startPlatformProcess } from '../support/process';

interface Mail {
  subject: string;
  links: string[];
}

/** Walks one account through every mail Omni sends and returns each mail's links, then a signed-in call. */
async function exercise(base: string) {
  const email = `port-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'correct-horse-42';
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await post('/api/auth/signup', { email, password })).status).toBe(201);
  expect((await post('/api/auth/magic-link', { email })).status).toBe(200);
  expect((await post('/api/auth/forgot-password', { email })).status).toBe(200);
  const mails = async () => {
    const res = await fetch(`${base}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    return ((await res.json()) as { messages: Mail[] }).messages;
  };
  let all: Mail[] = [];
  for (const until = Date.now() + 10_000; all.length < 3 && Date.now() < until; ) {
    all = await mails();
    if (all.length < 3) await new Promise((r) => setTimeout(r, 100));
  }
  const links = all.flatMap((m) => m.links);
  const param = (name: string) =>
    new URL(links.find((l) => new URL(l).searchParams.has(name))!).searchParams.get(name)!;

  // A session from the verification link: an access token from the embedded issuer, checked by the gateway.
  const verified = await post('/api/auth/verify', { token: param('verify') });
  expect(verified.status).toBe(200);
  const { accessToken } = (await verified.json()) as { accessToken: string };
  const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  const issuer = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).iss;

  const signed = await fetch(`${base}/api/uploads/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({
      bucket: 'omni-assets',
      fileName: 'song.wav',
      contentType: 'audio/wav',
      size: 1000,
      purpose: 'artist-upload',
    }),
  });
  expect(signed.status).toBe(200);
  const { signedUrl } = (await signed.json()) as { signedUrl: string };
  return { subjects: all.map((m) => m.subject), links, meStatus: me.status, issuer, signedUrl };
}

describe('npm start with HTTP_PORT set and PUBLIC_URL unset', () => {
  let omni: PlatformProcess;
  beforeAll(async () => {
    // An empty PUBLIC_URL is "unset" (as Helm renders it); the support helper would otherwise set it.
    omni = await startPlatformProcess({ env: { PUBLIC_URL: '' } });
  });
  afterAll(() => omni?.stop());

  it('prints the address it really listens on', () => {
    const banner = omni.output();
    expect(banner).toContain(`→ ${omni.url}\n`);
    expect(banner).toContain(`links at ${omni.url}/dev/mailbox`);
    expect(banner).not.toContain('localhost:8080');
  });

  it('mails links to that address, and its tokens verify', async () => {
    const { subjects, links, meStatus, issuer, signedUrl } = await exercise(omni.url);
    expect(subjects).toHaveLength(3); // verification, magic link, reset
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const link of links) expect(link.startsWith(`${omni.url}/`)).toBe(true);
    expect((await fetch(links[0]!)).status).toBe(200); // the page a person lands on
    expect(issuer).toBe(`${omni.url}/realms/omni`);
    expect(meStatus).toBe(200);
    expect(signedUrl.startsWith(`${omni.url}/objects/`)).toBe(true);
  });
});

describe('a port the OS picks (HTTP_PORT unset, OMNI_RANDOM_PORTS)', () => {
  let platform: Platform;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'omni-public-url-'));
    const config = loadConfig(
      { NODE_ENV: 'test', DATA_DIR: dataDir, OMNI_RANDOM_PORTS: 'true', BIND_HOST: '127.0.0.1' },
      [],
    );
    platform = await startPlatform(config, MODULES);
  });
  afterAll(async () => {
    await platform?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('hands out that port everywhere', async () => {
    expect(platform.url).not.toBe('http://localhost:0');
    expect(platform.config.publicUrl).toBe(platform.url);
    const { links, meStatus, issuer, signedUrl } = await exercise(platform.url);
    for (const link of links) expect(link.startsWith(`${platform.url}/`)).toBe(true);
    expect(issuer).toBe(`${platform.url}/realms/omni`);
    expect(meStatus).toBe(200);
    expect(signedUrl.startsWith(`${platform.url}/objects/`)).toBe(true);
  });
});

describe('PUBLIC_URL set', () => {
  it('wins over the port, without a trailing slash', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://omni.example.com/', HTTP_PORT: '8095' }, []);
    expect(config.publicUrl).toBe('https://omni.example.com');
  });
});
