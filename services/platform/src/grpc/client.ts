// gRPC clients as plain async functions with a deadline on every call. Callers in the same process still
// go over loopback gRPC, so the code path is the one a cluster runs.
import {
  type CallOptions,
  type Client,
  credentials,
  Metadata,
  makeGenericClientConstructor,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import type { RequestOf, ResponseOf } from './server';

type AnyMethod = {
  path: string;
  requestSerialize: (v: never) => Buffer;
  responseDeserialize: (b: Buffer) => unknown;
};

export interface CallOpts {
  deadlineMs?: number;
  /** Forwarded as `authorization: Bearer …` so the callee can check who calls. */
  bearer?: string;
  metadata?: Record<string, string>;
}

export type PromiseClient<D> = {
  [K in keyof D]: (request: RequestOf<D[K]>, opts?: CallOpts) => Promise<ResponseOf<D[K]>>;
} & { close(): void; waitForReady(deadlineMs: number): Promise<void> };

export function createGrpcClient<D extends Record<string, AnyMethod>>(
  definition: D,
  address: string | (() => string),
  defaults: { deadlineMs: number } = { deadlineMs: 5000 },
): PromiseClient<D> {
  // Resolved on first use: in tests and all-in-one mode a peer's port is known only after it has bound.
  let client: Client | undefined;
  const get = () => {
    if (!client) {
      const Ctor = makeGenericClientConstructor(definition as unknown as ServiceDefinition, 'omni');
      client = new Ctor(typeof address === 'function' ? address() : address, credentials.createInsecure(), {
        'grpc.keepalive_time_ms': 30_000,
        // gRPC's default is 4 MB; some answers are larger by nature (a finished Finder scan's result and
        // its CSV export grow with the findings of a 10,000-track catalogue).
        'grpc.max_receive_message_length': 32 * 1024 * 1024,
        // A peer that restarted (a crashed pod's replacement, a killed process started again) is
        // answered within seconds: gRPC's default backoff grows to 120 s between attempts, and every call
        // meanwhile fails at once with UNAVAILABLE (503) although the peer is back (the cluster's
        // kill -9 fault test found the gateway refusing for half a minute after catalog was ready).
        'grpc.initial_reconnect_backoff_ms': 250,
        'grpc.max_reconnect_backoff_ms': 2000,
      });
    }
    return client;
  };
  const api: Record<string, unknown> = {
    close: () => client?.close(),
    waitForReady: (deadlineMs: number) =>
      new Promise<void>((resolve, reject) =>
        get().waitForReady(Date.now() + deadlineMs, (err) => (err ? reject(err) : resolve())),
      ),
  };
  for (const key of Object.keys(definition)) {
    const method = definition[key]!;
    api[key] = (request: unknown, opts: CallOpts = {}) =>
      new Promise((resolve, reject) => {
        const metadata = new Metadata();
        for (const [k, v] of Object.entries(opts.metadata ?? {})) metadata.set(k, v);
        if (opts.bearer) metadata.set('authorization', `Bearer ${opts.bearer}`);
        const options: CallOptions = { deadline: Date.now() + (opts.deadlineMs ?? defaults.deadlineMs) };
        get().makeUnaryRequest(
          method.path,
          method.requestSerialize as (v: unknown) => Buffer,
          method.responseDeserialize,
          request,
          metadata,
          options,
          (err, value) => (err ? reject(err) : resolve(value)),
        );
      });
  }
  return api as PromiseClient<D>;
}
