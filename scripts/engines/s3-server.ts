// The S3 server the s3 engine runs as a process of its own (`node --import tsx scripts/engines/s3-server.ts
// --data <dir> --port <p> --access-key <k> --secret-file <file> [--public-buckets a,b]`), and the objects
// contract suite runs in-process: @20minutes/s3rver, which verifies SigV4 headers and presigned URLs, behind
// a front that makes it refuse what a real S3 or MinIO refuses and s3rver lets through:
//   - s3rver serves requests that carry no signature at all as if they were signed; here only reads of
//     objects in the public buckets (the bucket policy Omni's artwork needs) go unsigned;
//   - s3rver trusts its built-in S3RVER/S3RVER key pair, known to everyone; here only the given key works;
//   - s3rver answers CORS only for buckets given a CORS configuration, which its clients cannot set on the
//     buckets Omni creates at run time; here every bucket answers browsers as MinIO does by default (any
//     origin, or the listed ones), so a page on the gateway's origin can PUT to a presigned URL;
//   - s3rver reads a host name that is not an IP or localhost as a bucket (virtual-host style); the minio
//     client speaks path style to such hosts, so that is off.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3ServerOptions {
  /** Where buckets and objects are kept. */
  directory: string;
  /** 0 picks a free one. */
  port: number;
  host?: string;
  accessKey: string;
  secretKey: string;
  /** Buckets whose objects anyone may GET or HEAD without a signature. */
  publicBuckets?: readonly string[];
  /** Origins browsers may call from; default any. */
  allowedOrigins?: readonly string[];
}

export interface S3Server {
  port: number;
  url: string;
  close(): Promise<void>;
}

interface S3rverApp {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}
type S3rverConstructor = new (options: {
  directory: string;
  silent: boolean;
  vhostBuckets: boolean;
  allowMismatchedSignatures: boolean;
}) => S3rverApp;
interface AccountModel {
  DUMMY_ACCOUNT: {
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
    revokeAccessKey(accessKeyId: string): void;
  };
}

const CORS_METHODS = 'GET, HEAD, PUT, POST, DELETE';
// What a page may read back from an upload or a ranged read (the ETag names what it uploaded).
const CORS_EXPOSED = 'ETag, Content-Length, Content-Range, Accept-Ranges, x-amz-request-id';

export async function startS3Server(options: S3ServerOptions): Promise<S3Server> {
  // s3rver ships no types: the two shapes above are all this file relies on.
  const S3rver = require('@20minutes/s3rver') as S3rverConstructor;
  const { DUMMY_ACCOUNT } = require('@20minutes/s3rver/lib/models/account') as AccountModel;
  DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  DUMMY_ACCOUNT.createKeyPair(options.accessKey, options.secretKey);
  mkdirSync(options.directory, { recursive: true });
  const app = new S3rver({
    directory: options.directory,
    silent: true,
    vhostBuckets: false,
    allowMismatchedSignatures: false,
  });
  const s3 = app.callback();
  const publicBuckets = new Set(options.publicBuckets ?? []);
  const allowed = options.allowedOrigins?.length ? new Set(options.allowedOrigins) : undefined;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3.invalid');
    const origin = req.headers.origin;
    const corsOk = origin !== undefined && (!allowed || allowed.has(origin));
    if (corsOk) {
      res.setHeader('Access-Control-Allow-Origin', allowed ? origin : '*');
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED);
      res.setHeader('Vary', 'Origin');
    }
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'];
    if (preflight) {
      if (!corsOk) return refuse(res, 403, 'CORSResponse', 'This origin may not call this server.');
      res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
      const asked = req.headers['access-control-request-headers'];
      if (asked) res.setHeader('Access-Control-Allow-Headers', asked);
      res.setHeader('Access-Control-Max-Age', '3600');
      res.writeHead(200).end();
      return;
    }
    if (!signed(req, url) && !publicRead(req, url, publicBuckets)) {
      return refuse(res, 403, 'AccessDenied', 'Access Denied');
    }
    s3(req, res);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '127.0.0.1', () => done());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () => closeServer(server),
  };
}

/** Carries a signature for s3rver to verify (header, or a v2 or v4 presigned query). */
function signed(req: IncomingMessage, url: URL): boolean {
  return (
    req.headers.authorization !== undefined ||
    url.searchParams.has('Signature') ||
    url.searchParams.has('X-Amz-Algorithm')
  );
}

function publicRead(req: IncomingMessage, url: URL, publicBuckets: Set<string>): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const [bucket, ...key] = url.pathname.slice(1).split('/');
  return publicBuckets.has(bucket ?? '') && key.join('/') !== '';
}

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const directory = argument('data');
  const secretFile = argument('secret-file');
  const accessKey = argument('access-key');
  if (!directory || !secretFile || !accessKey) {
    console.error(
      'usage: s3-server.ts --data <dir> --port <port> --access-key <key> --secret-file <file> [--public-buckets a,b] [--origins o1,o2]',
    );
    process.exit(2);
  }
  const list = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : undefined);
  // The secret is read from an owner-only file, so it never shows in the process list.
  const secretKey = readFileSync(secretFile, 'utf8').trim();
  const server = await startS3Server({
    directory,
    port: Number(argument('port') ?? 0),
    accessKey,
    secretKey,
    publicBuckets: list(argument('public-buckets')),
    allowedOrigins: list(argument('origins')),
  });
  console.log(`S3 (s3rver) listening on ${server.url}, data in ${directory}`);
  const stop = (signal: string) => {
    console.log(`${signal}: stopping`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`the S3 server did not start: ${(err as Error).message}`);
    process.exit(1);
  });
}
