// What a service is to the runtime (after Loki's modules): a name and an init that registers gRPC handlers,
// HTTP routes, subscriptions and stop hooks on the context it is given. The runtime does the listening,
// health, readiness and orderly shutdown, identically for one service or all of them.
import type { Express } from 'express';
import type { PlatformConfig } from '../config/config';
import type { ServiceName } from '../config/services';
import type { PromiseClient } from '../grpc/client';
import type { GrpcServerHandle } from '../grpc/server';
import type { HttpFastPath } from '../http/fast-path';
import type { Logger } from '../logging/logger';
import type { Ports } from './ports';

export interface ServiceContext {
  name: ServiceName;
  config: PlatformConfig;
  logger: Logger;
  ports: Ports;
  grpc: GrpcServerHandle;
  /** This service's HTTP app: /healthz and /readyz are already mounted; the gateway's is the public one. */
  http: Express;
  /**
   * Answers requests before Express when the answer is ready (see http/fast-path.ts). Only for answers
   * that Express would give identically; the security headers are added.
   */
  fastPath(fastPath: HttpFastPath): void;
  /** A gRPC client for any service, resolved lazily to wherever that service listens. */
  client<D extends Record<string, unknown>>(service: ServiceName, definition: D): PromiseClient<D>;
  /** Adds a readiness check (backs /readyz and the gRPC health status). */
  readiness(name: string, check: () => Promise<boolean>): void;
  /** Runs on shutdown, in reverse order of registration, after the servers stop accepting. */
  onStop(hook: () => Promise<void> | void): void;
  /** Runs once the service's servers are listening (background loops, seeding that needs peers). */
  onStarted(hook: () => Promise<void> | void): void;
}

export interface ServiceModule {
  name: ServiceName;
  /** A one-line description for the start-up banner. */
  description: string;
  init(ctx: ServiceContext): Promise<void>;
}
