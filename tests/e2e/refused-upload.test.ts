// A refused upload reaches the person as itself in a real browser: the web app PUTs files with
// XMLHttpRequest (frontends/dashboard/src/lib/upload.ts), and a refusal that storage decides while
// megabytes are still on their way must arrive as its status and message, not as a network error or a 502.
import { createStorageService } from '@omni/service-storage';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let browser: Browser;
let page: Page;
let token: string;
/** Lifetime of upload links signed from now on (one test shortens it to watch a link expire). */
let uploadUrlSeconds = 900;

interface XhrResult {
  status: number;
  responseText: string;
  error?: string;
}

beforeAll(async () => {
  platform = await startTestPlatform({
    env: { LOG_LEVEL: 'error' },
    modules: { storage: createStorageService({ uploadUrlSeconds: () => uploadUrlSeconds }) },
  });
  token = await signTestToken(await platform.ports.documents('identity'), { userId: 'user-xhr' });
  browser = await launchBrowser();
  page = await browser.newPage();
  // Any page of the app: the upload goes to the same origin, as it does from the upload screens.
  await page.goto(`${platform.url}/no-such-page`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

async function sign(fileName: string, size: number): Promise<string> {
  const res = await fetch(`${platform.url}/api/uploads/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ bucket: 'audio', fileName, contentType: 'audio/wav', size, purpose: 'console' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { signedUrl: string }).signedUrl;
}

/**
 * PUTs `size` bytes from the page with XMLHttpRequest, as the web app does (with the signer's bearer), and
 * reports what it saw.
 */
function xhrPut(url: string, size: number, contentType = 'audio/wav'): Promise<XhrResult> {
  return page.evaluate(
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
    { url, size, contentType, token },
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
  uploadUrlSeconds = 1;
  let url: string;
  try {
    url = await sign('late-master.wav', 20 * 1024 * 1024);
  } finally {
    uploadUrlSeconds = 900;
  }
  await new Promise((r) => setTimeout(r, 2100));
  const result = await xhrPut(url, 20 * 1024 * 1024);
  expect(result.status).toBe(403);
  expect(JSON.parse(result.responseText)).toEqual({
    error: { message: 'This upload link has expired. Request a new one.' },
  });
});

it('shows a file of the wrong type as 400 naming the type the link is for', async () => {
  const result = await xhrPut(await sign('typed.wav', 1000), EIGHT_MB, 'video/mp4');
  expect(result.status).toBe(400);
  expect(JSON.parse(result.responseText).error.message).toBe(
    'This upload link is for files of type "audio/wav", but the request sent "video/mp4".',
  );
});
