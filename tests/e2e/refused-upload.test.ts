// A refused upload reaches the person as itself in a real browser: the web app PUTs files with
// XMLHttpRequest (frontends/dashboard/src/lib/upload.ts), and a refusal that storage decides while
// megabytes are still on their way must arrive as its status and message, not as a network error or a 502.
import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

const suite = browserSuite('refused-upload', { env: { LOG_LEVEL: 'error' } });
/** A platform, a signed-in uploader and a page of the app on its origin. */
interface Target {
  url: string;
  token: string;
  page: Page;
}
let target: Target;

interface XhrResult {
  status: number;
  responseText: string;
  error?: string;
}

/** Any page of the app: the upload goes to the same origin, as it does from the upload screens. */
async function targetOn(platform: TestPlatform): Promise<Target> {
  const token = await signTestToken(await platform.ports.documents('identity'), { userId: 'user-xhr' });
  const page = await suite.newPage();
  await page.goto(`${platform.url}/no-such-page`);
  return { url: platform.url, token, page };
}

beforeAll(async () => {
  target = await targetOn(suite.platform);
});

async function sign(fileName: string, size: number, on = target): Promise<string> {
  const res = await fetch(`${on.url}/api/uploads/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${on.token}` },
    body: JSON.stringify({ bucket: 'audio', fileName, contentType: 'audio/wav', size, purpose: 'console' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { signedUrl: string }).signedUrl;
}

/**
 * PUTs `size` bytes from the page with XMLHttpRequest, as the web app does (with the signer's bearer), and
 * reports what it saw.
 */
function xhrPut(url: string, size: number, contentType = 'audio/wav', on = target): Promise<XhrResult> {
  return on.page.evaluate(
    ({ url, size, contentType, token }) =>
      new Promise<XhrResult>((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open('PUT', url);
        xhr.setRequestHeader('Content-Type', contentType);
        xhr.setRequestHeader('Authorization', `Bearer ${token}`);
        xhr.onload = () => resolve({ status: xhr.status, responseText: xhr.responseText });
        xhr.onerror = () => resolve({ status: xhr.status, responseText: '', error: 'network error' });
        xhr.send(new Blob([new Uint8Array(size)]));
      }),
    { url, size, contentType, token: on.token },
  );
}

const EIGHT_MB = 8 * 1024 * 1024;

it('shows an 8 MB file on a 1,000-byte link as 413 with the real message', async () => {
  for (let i = 0; i < 3; i++) {
    const result = await xhrPut(await sign(`big-${i}.wav`, 1000), EIGHT_MB);
    expect(result).toEqual({
      status: 413,
      responseText: JSON.stringify({
        error: { message: 'This file is larger than the upload link allows (at most 1000 bytes).' },
      }),
    });
  }
});

it('shows a 20 MB master on an expired link as 403 saying to request a new link', async () => {
  // A platform of its own whose upload links live one second, as an operator may set them.
  const short = await startTestPlatform({ env: { LOG_LEVEL: 'error', UPLOAD_LINK_SECONDS: '1' } });
  try {
    const on = await targetOn(short);
    const url = await sign('late-master.wav', 20 * 1024 * 1024, on);
    await new Promise((r) => setTimeout(r, 2100));
    const result = await xhrPut(url, 20 * 1024 * 1024, 'audio/wav', on);
    expect(result.status).toBe(403);
    expect(JSON.parse(result.responseText)).toEqual({
      error: { message: 'This upload link has expired. Request a new one.' },
    });
  } finally {
    await short.close();
  }
  // It starts a platform of its own: 3 s alone, over 30 s once in .ci/run with other suites on both cores.
}, 120_000);

it('shows a file of the wrong type as 400 naming the type the link is for', async () => {
  const result = await xhrPut(await sign('typed.wav', 1000), EIGHT_MB, 'video/mp4');
  expect(result.status).toBe(400);
  expect(JSON.parse(result.responseText).error.message).toBe(
    'This upload link is for files of type "audio/wav", but the request sent "video/mp4".',
  );
});
