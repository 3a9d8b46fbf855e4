// The dev mailbox hands out every verification, magic-link and reset link, so it must never be readable by
// someone else: production refuses to start with it, and `npm start` (bound to every interface) answers
// it only to callers on this machine.
//
// A genuinely remote caller, honestly: the platform listens on 0.0.0.0 and the test connects to this
// machine's own non-loopback address (eth0's, from os.networkInterfaces()) from that address. The server's
// socket then sees a non-loopback peer, exactly as it would for another host; no header or mock decides.
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { freePort, runPlatformUntilExit, startPlatformProcess } from '../support/process';

const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
if (!external)
  console.log('[dev-mailbox] remote-caller case: SKIPPED — this machine has no non-loopback IPv4 interface');

let platform: TestPlatform;
let port: number;
const email = `mailbox-${Date.now()}@example.com`;

function get(
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, headers, localAddress: host }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  platform = await startTestPlatform({ env: { BIND_HOST: '0.0.0.0' } });
  port = Number(new URL(platform.url).port);
  const res = await fetch(`${platform.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct-horse-42' }),
  });
  expect(res.status).toBe(201);
});
afterAll(() => platform?.close());

describe('on npm start (bound to every interface)', () => {
  it('answers callers on this machine, and a local proxy naming a local client', async () => {
    const direct = await get('127.0.0.1', `/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    expect(direct.status).toBe(200);
    expect(JSON.parse(direct.body).messages[0].links.length).toBeGreaterThan(0);
    const html = await get('127.0.0.1', '/dev/mailbox', { 'x-forwarded-for': '127.0.0.1' });
    expect(html.status).toBe(200);
    expect(html.body).toContain(email);
  });

  it('refuses a remote caller forwarded by a proxy on this machine', async () => {
    for (const path of ['/api/dev/mailbox', '/dev/mailbox']) {
      const res = await get('127.0.0.1', path, { 'x-forwarded-for': '203.0.113.9' });
      expect(res.status).toBe(403);
      expect(res.body).not.toContain(email);
    }
  });

  (external ? it : it.skip)(
    `refuses a caller from another address (${external ?? 'no non-loopback interface here'}), whatever its headers say`,
    async () => {
      const headerSets: Record<string, string>[] = [
        {},
        { 'x-forwarded-for': '127.0.0.1' },
        { 'x-forwarded-for': '::1, 127.0.0.1' },
      ];
      for (const headers of headerSets) {
        for (const path of [
          '/api/dev/mailbox',
          `/api/dev/mailbox?to=${encodeURIComponent(email)}`,
          '/dev/mailbox',
        ]) {
          const res = await get(external!, path, headers);
          expect({ path, headers, status: res.status }).toEqual({ path, headers, status: 403 });
          expect(res.body).toContain('can only be read on the machine running Omni');
          expect(res.body).not.toContain(email);
        }
      }
      // The rest of the platform still answers that caller: only the mailbox is local.
      expect((await get(external!, '/healthz')).status).toBe(200);
    },
  );
});

describe('with identity in another process', () => {
  (external ? it : it.skip)(
    'identity alone, bound to every interface, answers the mailbox only to this machine',
    async () => {
      const identity = await startPlatformProcess({
        env: {
          OMNI_SERVICES: 'identity',
          BIND_HOST: '0.0.0.0',
          OMNI_RANDOM_PORTS: 'false',
          GRPC_PORT: String(await freePort()),
        },
      });
      try {
        const identityPort = Number(new URL(identity.url).port);
        const from = (host: string, path: string) =>
          new Promise<number>((resolve, reject) => {
            const req = request({ host, port: identityPort, path, localAddress: host }, (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            });
            req.on('error', reject);
            req.end();
          });
        expect(await from('127.0.0.1', '/api/dev/mailbox')).toBe(200);
        expect(await from(external!, '/api/dev/mailbox')).toBe(403);
        expect(await from(external!, '/dev/mailbox')).toBe(403);
      } finally {
        await identity.stop();
      }
    },
  );

  // The mailbox is identity's: a gateway started alone (as its own pod would be) has no mailer, and
  // reaches the mails of an identity running as a separate OS process over HTTP, as it does /realms.
  it('the gateway forwards the mailbox to identity, holding no mailer itself', async () => {
    const grpc = await freePort();
    const identity = await startPlatformProcess({
      env: { OMNI_SERVICES: 'identity', OMNI_RANDOM_PORTS: 'false', GRPC_PORT: String(grpc) },
    });
    let gateway: TestPlatform | undefined;
    try {
      gateway = await startTestPlatform({
        services: 'gateway',
        env: { IDENTITY_HTTP_URL: identity.url, IDENTITY_GRPC_ADDR: `127.0.0.1:${grpc}` },
      });
      const to = `split-${Date.now()}@example.com`;
      const signup = await fetch(`${gateway.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: to, password: 'correct-horse-42' }),
      });
      expect(signup.status).toBe(201);
      const res = await fetch(`${gateway.url}/api/dev/mailbox?to=${encodeURIComponent(to)}`);
      expect(res.status).toBe(200);
      const { messages } = (await res.json()) as { messages: { to: string; links: string[] }[] };
      expect(messages.map((m) => m.to)).toEqual([to]);
      expect(messages[0]!.links.length).toBeGreaterThan(0);
      const html = await fetch(`${gateway.url}/dev/mailbox`);
      expect(html.status).toBe(200);
      expect(await html.text()).toContain(to);
      // The mails are in identity's data folder; the gateway's has no mailbox at all.
      expect(existsSync(join(identity.dataDir, 'mailbox'))).toBe(true);
      expect(existsSync(join(gateway.dataDir, 'mailbox'))).toBe(false);
    } finally {
      await gateway?.close();
      await identity.stop();
    }
  });
});

/** Just enough SMTP for the mailer's start-up check (greeting, EHLO, QUIT): nothing is sent here. */
async function greetingSmtp(): Promise<{ url: string; server: TcpServer }> {
  const server = createTcpServer((socket) => {
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (data) => {
      for (const line of data.toString().split('\r\n').filter(Boolean)) {
        if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write(/^(EHLO|HELO)/i.test(line) ? '250 test\r\n' : '250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, server };
}

describe('with a real mail transport (MAIL=smtp)', () => {
  it('answers 404 on both mailbox paths: sign-in links are never readable here', async () => {
    const smtp = await greetingSmtp();
    const withSmtp = await startTestPlatform({ env: { MAIL: 'smtp', SMTP_URL: smtp.url } });
    try {
      for (const path of ['/api/dev/mailbox', '/dev/mailbox']) {
        const res = await fetch(`${withSmtp.url}${path}`);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(await res.text()).toContain('The dev mailbox exists only in embedded mail mode.');
      }
    } finally {
      await withSmtp.close();
      smtp.server.close();
    }
  });
});

describe('in production', () => {
  it('refuses to start with the embedded mailbox, naming MAIL', async () => {
    const { code, output } = await runPlatformUntilExit({
      NODE_ENV: 'production',
      OBJECT_URL_SECRET: 'a-real-secret-from-the-operator-0123456789',
    });
    expect(code).toBe(2);
    expect(output).toMatch(/MAIL: must be smtp in production/);
  });

  it('refuses MAIL=embedded said out loud just the same', async () => {
    const { code, output } = await runPlatformUntilExit({
      NODE_ENV: 'production',
      MAIL: 'embedded',
      OBJECT_URL_SECRET: 'a-real-secret-from-the-operator-0123456789',
    });
    expect(code).toBe(2);
    expect(output).toMatch(/MAIL: must be smtp in production/);
  });
});
