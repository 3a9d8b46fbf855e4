// An in-process s3rver for the objects contract suite. It speaks enough S3 to exercise the minio
// adapter's protocol path (PUT, multipart, ranges, listing, presigned URLs) but does not check
// signatures the way S3 does, so it proves nothing about signing: those cases run against the local
// adapter and against a real S3 when S3_ENDPOINT is set.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
}) => S3rverInstance;

export interface RunningS3rver {
  endPoint: string;
  port: number;
  accessKey: string;
  secretKey: string;
  stop(): Promise<void>;
}

export async function startS3rver(): Promise<RunningS3rver> {
  // s3rver ships no types; the constructor shape above is all this file relies on.
  const S3rver = require('s3rver') as S3rverConstructor;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  return {
    endPoint: '127.0.0.1',
    port,
    // s3rver's built-in account.
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
