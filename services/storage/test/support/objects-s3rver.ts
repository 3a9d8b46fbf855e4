// An in-process S3 server for the objects contract suite: @20minutes/s3rver, the maintained fork of
// s3rver, which speaks enough S3 to exercise the minio adapter's protocol path (PUT, multipart, ranges,
// listing, presigned URLs) and, unlike s3rver 3.x, verifies SigV4 signatures and presigned-URL expiry
// (allowMismatchedSignatures stays false), so the suite's signature cases run against it too.
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
  // It ships no types; the constructor shape above is all this file relies on.
  const S3rver = require('@20minutes/s3rver') as S3rverConstructor;
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
