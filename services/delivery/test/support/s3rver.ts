// An in-process S3 server that verifies SigV4 (@20minutes/s3rver), with its object-created events
// recorded in order: the store's-side view of what the S3 connector wrote.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface S3Event {
  Records: { eventName: string; s3: { object: { key: string } } }[];
}
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  on(event: 'event', listener: (event: S3Event) => void): void;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets?: { name: string }[];
}) => S3rverInstance;

export interface RunningS3rver {
  port: number;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** `ObjectCreated:Put store/key` lines, in the order the server stored them. */
  events: string[];
  stop(): Promise<void>;
}

export async function startS3rver(): Promise<RunningS3rver> {
  // It ships no types; the constructor shape above is all this file relies on.
  const S3rver = require('@20minutes/s3rver') as S3rverConstructor;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-s3rver-'));
  const bucket = 'store';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const events: string[] = [];
  server.on('event', (event) => {
    for (const r of event.Records) events.push(`${r.eventName} ${decodeURIComponent(r.s3.object.key)}`);
  });
  const { port } = await server.run();
  return {
    port,
    // s3rver's built-in account.
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket,
    events,
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
