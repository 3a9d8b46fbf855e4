// The gateway forwards /objects/* to storage's HTTP side and /realms/* to identity's. A path that climbs
// out of its mount (dot segments, however written: raw, %-encoded, double-encoded, with encoded slashes
// or backslashes) must be refused at the gateway with a 400 a person can read, and never reach the
// internal endpoints behind it (their /healthz and /readyz answer with the service's name).
// Requests go through node:http, which sends the path as written: fetch and URL would resolve the dot
// segments on the client side and never send them.
import { request } from 'node:http';
import { startTestPlatform, type TestPlatform } from '../support/platform';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { LOG_LEVEL: 'error' } });
}, 60_000);

afterAll(async () => {
  await platform?.close();
});

interface Answer {
  status: number;
  type: string;
  body: string;
}

function send(method: string, path: string): Promise<Answer> {
  const { hostname, port } = new URL(platform.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const INTERNAL = ['healthz', 'readyz'];
const CLIMBS = (mount: string, target: string) => [
  `/${mount}/../${target}`,
  `/${mount}/x/../../${target}`,
  `/${mount}/%2e%2e/${target}`,
  `/${mount}/%2E%2E/${target}`,
  `/${mount}/.%2e/${target}`,
  `/${mount}/%2e./${target}`,
  `/${mount}/omni/%2e%2e/%2e%2e/${target}`,
  `/${mount}/%2e%2e/${target}?x=1`,
  `/${mount}/..%2f${target}`,
  `/${mount}/..%2F..%2F${target}`,
  `/${mount}/..%5c${target}`,
  `/${mount}/..\\${target}`,
  `/${mount}/%252e%252e/${target}`,
  `/${mount}/%2e%2e%2f${target}`,
  `/${mount.toUpperCase()}/%2e%2e/${target}`,
  `/${mount}/./%2e%2e/${target}`,
];

describe.each(['objects', 'realms'])('/%s', (mount) => {
  it.each(INTERNAL)(
    'refuses every way of climbing out of the mount to /%s with a 400 JSON error',
    async (target) => {
      for (const path of CLIMBS(mount, target)) {
        for (const method of ['GET', 'PUT']) {
          const answer = await send(method, path);
          expect({ path, method, status: answer.status }).toEqual({ path, method, status: 400 });
          expect(answer.type).toMatch(/application\/json/);
          const { error } = JSON.parse(answer.body) as { error: { message: string } };
          expect(error.message).toBe(
            'This address is not valid: it must not contain "." or ".." segments, encoded slashes or backslashes.',
          );
          expect(answer.body).not.toContain('"service"');
        }
      }
    },
  );
});

it('still forwards what stays inside the mount', async () => {
  const config = await send('GET', '/realms/omni/.well-known/openid-configuration');
  expect(config.status).toBe(200);
  expect(JSON.parse(config.body)).toHaveProperty('jwks_uri');
  const certs = await send('GET', '/realms/omni/protocol/openid-connect/certs');
  expect(certs.status).toBe(200);
  // A file that does not exist in a public bucket: storage's own answer, passed through.
  const missing = await send('GET', '/objects/artwork/nobody/no-such-file.png');
  expect(missing.status).toBe(404);
  expect(JSON.parse(missing.body)).toEqual({ error: { message: 'File not found.' } });
});
