// Upload throughput: a 500 MB WAV streamed from disk through the signed-URL path of the all-in-one platform
// (browser → gateway → storage's object endpoint → disk, then completion with inspection) against a plain
// loopback PUT-to-disk server in the same run. Reports the throughput ratio and the platform's peak RSS
// (VmHWM) before and after, which shows whether server memory grows with the file.
//   node --import tsx tests/bench/upload.ts            (BENCH_UPLOAD_MB=500, BENCH_UPLOAD_RUNS=2)
import { type ChildProcess, spawn } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wavHeader } from '../support/media';
import { startPlatformProcess } from '../support/process';

const MB = 1024 * 1024;
const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 500);
const runs = Number(process.env.BENCH_UPLOAD_RUNS ?? 2);

/** A PCM WAV of about `mb` megabytes, written as a header plus a sparse tail: generated, never held in memory. */
function makeWav(file: string, mb: number): number {
  const rate = 44100;
  const frame = 4; // 16-bit stereo
  const data = Math.floor((mb * MB - 44) / frame) * frame;
  const h = wavHeader(data, { rate, channels: 2, bits: 16 });
  const fd = openSync(file, 'w');
  writeSync(fd, h);
  ftruncateSync(fd, 44 + data);
  closeSync(fd);
  return 44 + data;
}

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Streams the file to `url` with PUT; resolves with the status and the seconds it took. */
function putFile(url: string, file: string, size: number, headers: Record<string, string>) {
  return new Promise<{ status: number; seconds: number; body: string }>((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      url,
      { method: 'PUT', headers: { ...headers, 'content-length': String(size) } },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            seconds: Number(process.hrtime.bigint() - started) / 1e9,
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    createReadStream(file, { highWaterMark: MB }).pipe(req);
  });
}

/** The baseline: a bare node:http server piping the body to a file and syncing it, as the store does. */
const BASELINE = `
const http = require('node:http'); const fs = require('node:fs'); const path = require('node:path');
let n = 0;
const server = http.createServer((req, res) => {
  const file = path.join(process.env.DIR, 'put-' + n++);
  const out = fs.createWriteStream(file, { flush: true, highWaterMark: 1 << 20 });
  req.pipe(out);
  out.on('close', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); fs.rmSync(file, { force: true }); });
});
server.requestTimeout = 0;
server.listen(0, '127.0.0.1', () => process.stdout.write('listening ' + server.address().port + '\\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function startBaseline(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['-e', BASELINE], {
    env: { ...process.env, DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
  });
  return { child, url: `http://127.0.0.1:${port}/upload` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'omni-upload-bench-'));
  const file = join(dir, 'master.wav');
  const size = makeWav(file, sizeMb);
  const baseline = await startBaseline(dir);
  const platform = await startPlatformProcess();
  const pid = platform.child.pid!;
  try {
    const token = await platform.token({ userId: 'bench-artist' });
    const api = async (path: string, body: unknown) => {
      const res = await fetch(`${platform.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    // Warm both paths with a small body so the first timed run does not pay for lazy loading.
    await api('/api/uploads/sign', {
      bucket: 'omni-assets',
      fileName: 'warm.wav',
      contentType: 'audio/wav',
      size: 10,
      purpose: 'artist-upload',
    });
    const before = memory(pid);
    const baselineBefore = memory(baseline.child.pid!);
    const base: number[] = [];
    const plat: number[] = [];
    const completes: number[] = [];
    for (let i = 0; i < runs; i++) {
      const b = await putFile(baseline.url, file, size, { 'content-type': 'audio/wav' });
      if (b.status !== 200) throw new Error(`baseline PUT: ${b.status}`);
      base.push(b.seconds);

      const signed = (await api('/api/uploads/sign', {
        bucket: 'omni-assets',
        fileName: `master-${i}.wav`,
        contentType: 'audio/wav',
        size,
        purpose: 'artist-upload',
      })) as { signedUrl: string; fileKey: string; headers: Record<string, string> };
      const p = await putFile(signed.signedUrl, file, size, {
        'content-type': signed.headers['Content-Type']!,
        authorization: `Bearer ${token}`,
      });
      if (p.status !== 200) throw new Error(`platform PUT: ${p.status} ${p.body}`);
      plat.push(p.seconds);
      const t0 = performance.now();
      const done = (await api('/api/uploads/complete', {
        bucket: 'omni-assets',
        fileKey: signed.fileKey,
        role: 'audio',
      })) as {
        inspection: { durationSeconds: number };
      };
      completes.push(performance.now() - t0);
      if (!(done.inspection.durationSeconds > 0)) throw new Error('inspection found no duration');
    }
    const after = memory(pid);
    const baselineAfter = memory(baseline.child.pid!);
    const mbps = (s: number) => (size / MB / s).toFixed(0);
    const ratio = median(base) / median(plat);
    console.log(`\nUpload of a ${(size / MB).toFixed(0)} MB WAV, ${runs} run(s) each, median shown\n`);
    console.table({
      'baseline PUT-to-disk': {
        seconds: median(base).toFixed(2),
        'MB/s': mbps(median(base)),
        'RSS MB before→after': `${baselineBefore.rss.toFixed(0)}→${baselineAfter.rss.toFixed(0)}`,
        'peak RSS (VmHWM) MB before→after': `${baselineBefore.hwm.toFixed(0)}→${baselineAfter.hwm.toFixed(0)}`,
      },
      'platform signed PUT (gateway→storage)': {
        seconds: median(plat).toFixed(2),
        'MB/s': mbps(median(plat)),
        'RSS MB before→after': `${before.rss.toFixed(0)}→${after.rss.toFixed(0)}`,
        'peak RSS (VmHWM) MB before→after': `${before.hwm.toFixed(0)}→${after.hwm.toFixed(0)}`,
      },
    });
    console.log(
      `throughput ratio platform/baseline: ${ratio.toFixed(2)} (target ≥ 0.70) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`,
    );
    console.log(
      `peak RSS growth of the platform during the uploads: ${(after.hwm - before.hwm).toFixed(0)} MB for ${(size / MB).toFixed(0)} MB files`,
    );
    console.log(
      `completion (sniff + music-metadata inspection) of the ${(size / MB).toFixed(0)} MB file: median ${median(completes).toFixed(0)} ms`,
    );
  } finally {
    baseline.child.kill('SIGTERM');
    await platform.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
