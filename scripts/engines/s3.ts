// S3 with real signatures: @20minutes/s3rver (an npm package, installed with the repository) behind our own
// front (s3-server.ts), run as a process of its own with one access key and a secret made for each data
// folder. Nothing is downloaded: provisioning only checks the package is there.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLIC_BUCKETS } from '../../services/storage/src/domain/buckets';
import {
  type Engine,
  EngineError,
  ensureDir,
  httpOk,
  killPid,
  portsFor,
  REPO,
  startDaemon,
  stopPid,
  waitUntil,
} from './support';

const PACKAGE = '@20minutes/s3rver';
const VERSION = '5.0.0';
const ACCESS_KEY = 'omni-engines';

function installedVersion(): string | undefined {
  try {
    const manifest = require.resolve(`${PACKAGE}/package.json`, { paths: [REPO] });
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** The data folder's own secret: made once, owner-only, so a restart on the same data signs alike. */
function secretFile(dataDir: string): string {
  const file = join(dataDir, 'secret-key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(24).toString('base64url'), { mode: 0o600 });
  return file;
}

export const s3: Engine = {
  name: 's3',
  version: VERSION,

  missing() {
    const found = installedVersion();
    if (found === VERSION) return null;
    return found
      ? `${PACKAGE} ${found} is installed, but the s3 engine runs ${VERSION}: run \`npm install\`.`
      : `${PACKAGE} is not installed: run \`npm install\`.`;
  },

  async provision() {
    const missing = s3.missing();
    if (missing) throw new EngineError(missing);
  },

  async start({ dataDir, ports: given, log }) {
    const missing = s3.missing();
    if (missing) throw new EngineError(missing);
    ensureDir(dataDir);
    const ports = await portsFor(['s3'], given);
    const secret = secretFile(dataDir);
    const logFile = join(dataDir, 's3.log');
    const args = [
      // A file server: a small heap is plenty, and the machine is shared.
      '--max-old-space-size=128',
      '--import',
      'tsx',
      join(__dirname, 's3-server.ts'),
      '--data',
      join(dataDir, 'objects'),
      '--port',
      String(ports.s3),
      '--access-key',
      ACCESS_KEY,
      '--secret-file',
      secret,
      '--public-buckets',
      PUBLIC_BUCKETS.join(','),
      // No --origins: browsers may upload from any origin (the gateway at localhost or 127.0.0.1, a dev
      // server), as MinIO allows by default; the presigned URL's signature is what guards an upload.
    ];
    const child = startDaemon(process.execPath, args, { cwd: REPO, logFile });
    const url = `http://127.0.0.1:${ports.s3}`;
    try {
      // The front refuses an unsigned request with 403 once it listens (s3rver is loaded before it does).
      await waitUntil(() => httpOk(`${url}/omni-readiness-probe`, (s) => s === 403), {
        what: `S3 (${PACKAGE} ${VERSION})`,
        pid: child.pid,
        logFile,
        timeoutMs: 30_000,
      });
    } catch (err) {
      killPid(child.pid);
      throw err;
    }
    log?.(`s3: ${url} (access key ${ACCESS_KEY})`);
    return {
      name: 's3',
      pids: [child.pid],
      ports,
      endpoints: { s3: url },
      env: {
        OBJECT_STORE: 'minio',
        S3_ENDPOINT: url,
        S3_ACCESS_KEY: ACCESS_KEY,
        S3_SECRET_KEY: readFileSync(secret, 'utf8').trim(),
        S3_PUBLIC_URL: url,
      },
      logFile,
      stop: () => stopPid(child.pid),
      kill: () => killPid(child.pid),
    };
  },
};
