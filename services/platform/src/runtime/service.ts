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
  /** The security headers (helmet's) this service's HTTP app sends on every response, by lower-case name. */
  securityHeaders: Readonly<Record<string, string>>;
  /** A gRPC client for any service, resolved lazily to wherever that service listens. */
  client<D extends Record<string, unknown>>(service: ServiceName, definition: D): PromiseClient<D>;
  /** Adds a readiness check (backs /readyz and the gRPC health status). */
  readiness(name: string, check: () => Promise<boolean>): void;
  /** Runs on shutdown, in reverse order of registration, after the servers stop accepting. */
  onStop(hook: () => Promise<void> | void): void;
  /**
   * Runs on shutdown as soon as the HTTP server stops accepting, before it waits for open responses to
   * finish: a long-lived response (an event stream) must be ended here, or shutdown waits for it.
   */
  onDraining(hook: () => Promise<void> | void): void;
  /** Runs once the service's servers are listening (background loops, seeding that needs peers). */
  onStarted(hook: () => Promise<void> | void): void;
}

/**
 * The shared ports a service may open (see ports.ts). A port only one service uses (object store, identity
 * provider, mail, rate limits) is that service's provider, in its src/providers/.
 */
export type PortName = 'documents' | 'events';

/**
 * What a service declares about itself (after Backstage's declared dependencies): the runtime orders
 * start-up from `calls`, refuses a client for a service not listed there, and the banner, the architecture
 * test, the README diagram and the chart's NetworkPolicies are all derived from it.
 */
export interface ServiceGraphNode {
  /** The services it calls (gRPC or HTTP); they start before it, and only they may be reached from it. */
  calls: readonly ServiceName[];
  /** The event types it subscribes to. */
  consumes: readonly string[];
  /** The event types it publishes (through its outbox). */
  produces: readonly string[];
  /** The shared ports it opens. */
  ports: readonly PortName[];
  /**
   * Its own providers (src/providers/: adapters only it uses), each with a banner line saying which
   * adapter this configuration gives it.
   */
  providers?: Readonly<Record<string, (config: PlatformConfig) => string>>;
  /** Takes traffic from outside the cluster (browsers): its HTTP port is the public one. */
  public?: boolean;
}

export interface ServiceModule extends ServiceGraphNode {
  name: ServiceName;
  /** A one-line description for the start-up banner. */
  description: string;
  init(ctx: ServiceContext): Promise<void>;
}
