// Issue 21 §4.5: an over-long upload sent chunked (no declared length, so it is refused midway) must get
// its 413 and the message every time, as a Content-Length body does, never a reset connection. The client
// here is a raw socket that keeps writing 64 KB chunks to the end, as a browser does: node:http stops
// sending once it has an answer and would hide the race.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Platform, startPlatform } from '@omni/platform';
import { MODULES } from '@omni/server/src/modules';
import { signTestToken } from '../support/tokens';

let platform: Platform;
let dataDir: string;
let alice: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omni-chunked-413-'));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      OMNI_RANDOM_PORTS: 'true',
      BIND_HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:8080',
      LOG_LEVEL: 'warn',
    },
    [],
  );
  platform = await startPlatform(config, MODULES);
  const identity = await platform.ports.documents('identity');
  alice = await signTestToken(identity, { userId: 'user-alice-chunked' });
});
afterAll(async () => {
  await platform?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const SIXTEEN_MB = 16 * 1024 * 1024;
const tooLarge = 'This file is larger than the upload link allows (at most 1000 bytes).';

async function signSmall(fileName: string): Promise<URL> {
  const res = await fetch(`${platform.url}/api/uploads/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` },
    body: JSON.stringify({
      bucket: 'audio',
      fileName,
      contentType: 'audio/wav',
      size: 1000,
      purpose: 'console',
    }),
  });
  expect(res.status).toBe(200);
  return new URL(((await res.json()) as { signedUrl: string }).signedUrl);
}

interface Result {
  /** Everything the server sent back. */
  answer: string;
  /** The socket error seen before a complete answer arrived, if any. */
  error?: string;
}

/**
 * PUTs 16 MB chunked in 64 KB frames on a raw socket to `port`, writing on until done or the socket fails.
 * `slow`: a pause between frames (the whole body takes about 3 s, longer than the grace period), and the
 * answer read only once everything is sent, as clients that send first and read after do.
 */
function chunkedPut(port: number, host: string, url: URL, slow = false): Promise<Result> {
  return new Promise((resolve) => {
    let answer = '';
    let settled = false;
    const done = (error?: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      // An error once the whole answer is in (the server cutting off the rest of the body) is not a loss.
      resolve(error && !complete() ? { answer, error } : { answer });
    };
    const complete = () => {
      const split = answer.indexOf('\r\n\r\n');
      if (split === -1) return false;
      const length = /content-length: (\d+)/i.exec(answer.slice(0, split));
      return length !== null && Buffer.byteLength(answer.slice(split + 4)) >= Number(length[1]);
    };
    const socket = connect(port, host, () => {
      socket.write(
        `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: audio/wav\r\n` +
          `Authorization: Bearer ${alice}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * 1024, 7);
      const frame = Buffer.concat([Buffer.from('10000\r\n'), chunk, Buffer.from('\r\n')]);
      let sent = 0;
      const pump = () => {
        while (sent < SIXTEEN_MB && !socket.destroyed) {
          sent += chunk.length;
          const more = socket.write(frame);
          if (slow) return void setTimeout(pump, 12);
          if (!more) return void socket.once('drain', pump);
        }
        if (!socket.destroyed) socket.write('0\r\n\r\n', () => socket.resume());
      };
      pump();
    });
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      answer += text;
    });
    // Not reading until all is sent: what the server says waits in the kernel, where a reset discards it.
    if (slow) socket.pause();
    socket.on('error', (err) => done(err.message));
    socket.on('close', () => done());
    // The server closes after its answer (Connection: close); a client waiting longer is a hang.
    setTimeout(() => done('no close within 10 s'), 10_000).unref();
  });
}

it('answers 10 chunked 16 MB uploads on a 1,000-byte link through the gateway with 413 each, and closes', async () => {
  const gateway = new URL(platform.url);
  const results: Result[] = [];
  for (let i = 0; i < 10; i++) {
    const url = await signSmall(`chunked-16mb-${i}.wav`);
    results.push(await chunkedPut(Number(gateway.port), gateway.hostname, url));
  }
  for (const result of results) {
    expect(result.error).toBeUndefined();
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(result.answer).toContain(tooLarge);
  }
}, 120_000);

it('answers 10 chunked 16 MB uploads sent to storage itself with 413 each, and closes', async () => {
  const storage = new URL(platform.config.httpUrl('storage'));
  const results: Result[] = [];
  for (let i = 0; i < 10; i++) {
    const url = await signSmall(`chunked-16mb-direct-${i}.wav`);
    results.push(await chunkedPut(Number(storage.port), storage.hostname, url));
  }
  for (const result of results) {
    expect(result.error).toBeUndefined();
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(result.answer).toContain(tooLarge);
  }
}, 120_000);

it('answers 10 chunked 16 MB uploads sent with fetch (a streamed body) with 413 each', async () => {
  const statuses: (number | string)[] = [];
  for (let i = 0; i < 10; i++) {
    const url = await signSmall(`chunked-16mb-fetch-${i}.wav`);
    const chunk = new Uint8Array(64 * 1024).fill(7);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= SIXTEEN_MB) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    try {
      const res = await fetch(`${platform.url}${url.pathname}${url.search}`, {
        method: 'PUT',
        headers: { 'content-type': 'audio/wav', authorization: `Bearer ${alice}` },
        body,
        duplex: 'half',
      } as RequestInit);
      const text = await res.text();
      statuses.push(text.includes(tooLarge) ? res.status : `${res.status} ${text}`);
    } catch (err) {
      statuses.push(`failed: ${(err as Error).message} ${String((err as { cause?: unknown }).cause)}`);
    }
  }
  expect(statuses).toEqual(Array(10).fill(413));
}, 120_000);

it('answers a slow chunked 16 MB upload whose client reads only after sending it all with 413, 3 times', async () => {
  const gateway = new URL(platform.url);
  const results: Result[] = [];
  for (let i = 0; i < 3; i++) {
    const url = await signSmall(`chunked-16mb-slow-${i}.wav`);
    results.push(await chunkedPut(Number(gateway.port), gateway.hostname, url, true));
  }
  for (const result of results) {
    expect(result.error).toBeUndefined();
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.answer).toContain(tooLarge);
  }
}, 120_000);
