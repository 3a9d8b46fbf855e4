// Configuration comes from the environment (and `--services=` on the command line), validated with zod at
// start-up. A missing or malformed setting stops the process at once with a message naming the variable,
// as microservices-demo does, instead of failing later in an obscure way.
import { z } from 'zod';
import { PUBLISHED_SECRETS, SECRET_VARIABLES } from './published-secrets';
import { DEFAULT_PORTS, isServiceName, SERVICE_NAMES, type ServiceName } from './services';

const port = z.coerce.number().int().min(0).max(65535);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z
  .object({
    OMNI_SERVICES: z.string().default('all'),
    NODE_ENV: z.string().default('development'),
    DATA_DIR: z.string().min(1).default('./data'),
    /** What browsers see (mail links, signed object URLs, the embedded issuer). Unset: the gateway's own port. */
    PUBLIC_URL: z.url().optional(),
    BIND_HOST: z.string().default('0.0.0.0'),
    INTERNAL_HOST: z.string().default('127.0.0.1'),
    HTTP_PORT: port.optional(),
    GRPC_PORT: port.optional(),
    GRPC_DEADLINE_MS: z.coerce.number().int().positive().default(5000),
    EVENT_BUS: z.enum(['embedded', 'kafka']).default('embedded'),
    KAFKA_BROKERS: z.string().optional(),
    KAFKA_CLIENT_ID: z.string().default('omni'),
    KAFKA_SSL: bool.default(false),
    DOCUMENT_STORE: z.enum(['embedded', 'mongodb']).default('embedded'),
    MONGODB_URI: z.string().optional(),
    /**
     * On a MongoDB server without multi-document transactions (standalone mongod, FerretDB): 'journal'
     * journals them (all or nothing, no isolation), 'server' refuses the server. Unset: 'server' in
     * production, 'journal' elsewhere.
     */
    MONGODB_TRANSACTIONS: z.enum(['server', 'journal']).optional(),
    OBJECT_STORE: z.enum(['embedded', 'minio']).default('embedded'),
    S3_ENDPOINT: z.string().optional(),
    S3_PORT: port.optional(),
    S3_USE_SSL: bool.default(false),
    S3_ACCESS_KEY: z.string().optional(),
    S3_SECRET_KEY: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    /**
     * Where browsers reach the object store (its own ingress, or a CDN in front of it): an origin only, as
     * https://media.example.com. Public object URLs start with it, presigned URLs are signed for its host,
     * and the web app's Content-Security-Policy admits it. Unset: S3_ENDPOINT itself.
     */
    S3_PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .refine(isOrigin, {
        message:
          'must be an origin only (scheme://host[:port], no path, query or credentials): browsers load <origin>/<bucket>/<key> from it',
      })
      .optional(),
    OBJECT_URL_SECRET: z.string().min(16).optional(),
    STORAGE_HTTP_URL: z.string().optional(),
    /** How long a signed upload link stays valid, in seconds (S3 allows at most 7 days). */
    UPLOAD_LINK_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .default(15 * 60),
    /**
     * Files uploaded for a release that was never made (the tab closed before submitting) are removed after
     * this many hours (storage). Fractions allowed (tests).
     */
    ABANDONED_UPLOAD_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(24),
    FSYNC: bool.default(true),
    IDENTITY_PROVIDER: z.enum(['embedded', 'keycloak']).default('embedded'),
    KEYCLOAK_URL: z.url().optional(),
    KEYCLOAK_REALM: z.string().min(1).default('omni'),
    /** The issuer browsers see when it differs from KEYCLOAK_URL (in-cluster vs public address). */
    KEYCLOAK_ISSUER: z.url().optional(),
    KEYCLOAK_CLIENT_ID: z.string().min(1).default('omni-services'),
    KEYCLOAK_CLIENT_SECRET: z.string().optional(),
    /** Set when the realm's Google identity provider has real credentials ('Continue with Google'). */
    GOOGLE_SIGN_IN: bool.default(false),
    /** Attempts per minute on sign-in, sign-up, magic link, resend and reset: per client IP, per email. */
    AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
    AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().positive().default(5),
    MAIL: z.enum(['embedded', 'smtp']).default('embedded'),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Omni <no-reply@omni.local>'),
    /** Password of the admin seeded on first start; generated (and written to DATA_DIR) when unset. */
    OMNI_ADMIN_PASSWORD: z.string().min(6).optional(),
    /** Who takes payments: the embedded checkout sandbox (npm start, tests) or Stripe (production). */
    PAYMENTS: z.enum(['embedded', 'stripe']).default('embedded'),
    /** Stripe's secret API key (sk_test_… or sk_live_…); required when PAYMENTS=stripe. */
    STRIPE_SECRET_KEY: z.string().optional(),
    /** The webhook endpoint's signing secret (whsec_…). Embedded: made on first start under DATA_DIR. */
    STRIPE_WEBHOOK_SECRET: z.string().min(16).optional(),
    /**
     * Who pays payees: the embedded payout sandbox (npm start, tests) or Stripe Connect. Unset: stripe in
     * production, the sandbox elsewhere (a billing test against a Stripe-shaped server keeps the sandbox).
     */
    PAYOUTS: z.enum(['embedded', 'stripe']).optional(),
    /** The Connect webhook endpoint's signing secret (a separate endpoint from billing's). */
    STRIPE_CONNECT_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** Stripe's API address, for tests against a local server in Stripe's shapes (e.g. http://127.0.0.1:12111). */
    STRIPE_API_URL: z.url().optional(),
    /** The price ids of each plan (Stripe's price_… ids; the sandbox accepts the same names). */
    PRICE_PRO_MONTHLY: z.string().min(1).default('price_omni_pro_monthly'),
    PRICE_PRO_ANNUAL: z.string().min(1).default('price_omni_pro_annual'),
    PRICE_FINDER_MONTHLY: z.string().min(1).default('price_omni_finder_monthly'),
    /**
     * Where releases go. `simulator`: every store of the registry is the local store simulator under
     * DATA_DIR/delivery/stores (npm start, tests; refused in production). `registry`: the stores as
     * STORE_REGISTRY_FILE describes them (protocol, endpoint, party id, rules; credentials by env name).
     */
    STORES: z.enum(['simulator', 'registry']).default('simulator'),
    /**
     * The folder stores' sales and trend reports land in (an SFTP drop; the store simulator's reports),
     * which royalties reads. Default DATA_DIR/store-reports; services with separate data folders (the
     * one-machine cluster, pods) share it by setting it.
     */
    STORE_REPORTS_DIR: z.string().min(1).optional(),
    STORE_REGISTRY_FILE: z.string().optional(),
    /** Omni's DDEX party id (DPID, issued by DDEX) and name: every message's sender. */
    DDEX_SENDER_PARTY_ID: z
      .string()
      .regex(/^PADPIDA[a-zA-Z0-9]+$/, 'must be a DDEX party id (PADPIDA followed by letters and digits)')
      .optional(),
    DDEX_SENDER_NAME: z.string().min(1).default('Omni Distribution'),
    /** The simulator's wait before it acknowledges a batch (a store takes a while). */
    STORE_SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1500),
    /** Jobs packaged and sent at once (all stores together). */
    DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
    /** Backoff with full jitter: sleep = random(0, min(cap, base·2^attempt)); then the dead-letter list. */
    DELIVERY_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
    DELIVERY_RETRY_CAP_MS: z.coerce.number().int().min(1).default(3_600_000),
    DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
    /**
     * A sent batch with no acknowledgement after this long counts as a failed attempt and is resent as a
     * new batch (a store that lost it, or never saw its BatchComplete). Default 6 h.
     */
    DELIVERY_ACK_TIMEOUT_MS: z.coerce.number().int().min(100).default(21_600_000),
    /** How often sent jobs look for their store's acknowledgement, and due jobs are picked up. */
    DELIVERY_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
    /** How long a worker's claim on a job lasts unless renewed: a crashed process's jobs are due again after it. */
    DELIVERY_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
    /** Tests run several platforms at once: every port is picked by the OS and looked up after binding. */
    OMNI_RANDOM_PORTS: bool.default(false),
  })
  .superRefine((env, ctx) => {
    const need = (when: boolean, key: keyof typeof env, why: string) => {
      if (when && !env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `is required ${why}` });
    };
    need(env.EVENT_BUS === 'kafka', 'KAFKA_BROKERS', 'when EVENT_BUS=kafka');
    need(env.DOCUMENT_STORE === 'mongodb', 'MONGODB_URI', 'when DOCUMENT_STORE=mongodb');
    need(env.OBJECT_STORE === 'minio', 'S3_ENDPOINT', 'when OBJECT_STORE=minio');
    need(env.OBJECT_STORE === 'minio', 'S3_ACCESS_KEY', 'when OBJECT_STORE=minio');
    need(env.OBJECT_STORE === 'minio', 'S3_SECRET_KEY', 'when OBJECT_STORE=minio');
    // Browsers PUT uploads and play media on the object store's own address. In a cluster S3_ENDPOINT is an
    // in-cluster name no browser can reach, so production names the public one rather than hand out URLs
    // that fail on every upload.
    need(
      env.NODE_ENV === 'production' && env.OBJECT_STORE === 'minio',
      'S3_PUBLIC_URL',
      'in production with OBJECT_STORE=minio (the origin browsers reach the object store at)',
    );
    // An https site cannot load http media or PUT to http (mixed content): uploads and playback would fail.
    if (
      env.PUBLIC_URL?.startsWith('https:') &&
      env.OBJECT_STORE === 'minio' &&
      env.S3_PUBLIC_URL?.startsWith('http:')
    )
      ctx.addIssue({
        code: 'custom',
        path: ['S3_PUBLIC_URL'],
        message:
          'must be https when PUBLIC_URL is https: browsers refuse http uploads and media on an https page',
      });
    need(env.IDENTITY_PROVIDER === 'keycloak', 'KEYCLOAK_URL', 'when IDENTITY_PROVIDER=keycloak');
    need(
      env.IDENTITY_PROVIDER === 'keycloak',
      'KEYCLOAK_CLIENT_SECRET',
      'when IDENTITY_PROVIDER=keycloak (the omni-services client secret)',
    );
    need(env.MAIL === 'smtp', 'SMTP_URL', 'when MAIL=smtp');
    need(env.STORES === 'registry', 'STORE_REGISTRY_FILE', 'when STORES=registry');
    need(
      env.STORES === 'registry',
      'DDEX_SENDER_PARTY_ID',
      'when STORES=registry (the DPID DDEX issued to Omni)',
    );
    // The simulator acknowledges whatever it is sent: in production no release would reach a store.
    if (env.NODE_ENV === 'production' && env.STORES !== 'registry')
      ctx.addIssue({
        code: 'custom',
        path: ['STORES'],
        message:
          'must be registry in production (with STORE_REGISTRY_FILE): the store simulator delivers to no real store',
      });
    need(env.PAYMENTS === 'stripe', 'STRIPE_SECRET_KEY', 'when PAYMENTS=stripe');
    need(
      env.PAYMENTS === 'stripe',
      'STRIPE_WEBHOOK_SECRET',
      'when PAYMENTS=stripe (the endpoint signing secret)',
    );
    // The sandbox takes any test card and subscribes for free: in production that is Pro for everyone.
    if (env.NODE_ENV === 'production' && env.PAYMENTS !== 'stripe')
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS'],
        message:
          'must be stripe in production (with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET): the embedded checkout sandbox subscribes anyone without payment',
      });

    const payouts = env.PAYOUTS ?? (env.NODE_ENV === 'production' ? 'stripe' : 'embedded');
    need(payouts === 'stripe', 'STRIPE_SECRET_KEY', 'when PAYOUTS=stripe');
    need(
      payouts === 'stripe',
      'STRIPE_CONNECT_WEBHOOK_SECRET',
      'when PAYOUTS=stripe (the Connect endpoint signing secret)',
    );
    // The payout sandbox verifies anyone and pays nobody: in production no payee would ever be paid.
    if (env.NODE_ENV === 'production' && payouts !== 'stripe')
      ctx.addIssue({
        code: 'custom',
        path: ['PAYOUTS'],
        message:
          'must be stripe in production (with STRIPE_SECRET_KEY and STRIPE_CONNECT_WEBHOOK_SECRET): the embedded payout sandbox pays nobody',
      });

    need(
      env.NODE_ENV === 'production',
      'OBJECT_URL_SECRET',
      'in production (signs upload and download URLs)',
    );
    for (const key of SECRET_VARIABLES) {
      const value = key === 'MONGODB_URI' ? passwordIn(env.MONGODB_URI) : env[key];
      if (env.NODE_ENV === 'production' && value && PUBLISHED_SECRETS.has(value))
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message:
            'is a development value published in the Omni repository; set a secret of your own in production',
        });
    }
    // The dev mailbox shows every verification, magic-link and reset mail to whoever asks: in production
    // that is anyone taking over any account, the seeded admin included.
    if (env.NODE_ENV === 'production' && env.MAIL !== 'smtp')
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL'],
        message:
          'must be smtp in production (with SMTP_URL): the embedded dev mailbox would show every sign-in and password-reset link to anyone',
      });
  });

export type Env = z.infer<typeof envSchema>;

/** True for a URL that names only an origin (a trailing slash allowed). Not a URL: the format check says so. */
function isOrigin(url: string): boolean {
  if (!URL.canParse(url)) return true;
  const u = new URL(url);
  return u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password;
}

/**
 * The origin browsers load objects from when it is not Omni's own (OBJECT_STORE=minio): S3_PUBLIC_URL, or
 * the S3 endpoint itself. Presigned uploads are PUT there, and published audio and cover art are read from
 * there, so the web app's Content-Security-Policy must admit it. Undefined with the embedded store, whose
 * objects Omni serves at /objects on its own origin.
 */
export function objectStoreOrigin(env: Env): string | undefined {
  if (env.OBJECT_STORE !== 'minio' || !env.S3_ENDPOINT) return undefined;
  if (env.S3_PUBLIC_URL) return new URL(env.S3_PUBLIC_URL).origin;
  // As the minio adapter reads it: a URL's own scheme and port win over S3_USE_SSL and S3_PORT.
  const endpoint = env.S3_ENDPOINT.includes('://')
    ? new URL(env.S3_ENDPOINT)
    : new URL(`${env.S3_USE_SSL ? 'https' : 'http'}://${env.S3_ENDPOINT}`);
  if (!endpoint.port && env.S3_PORT) endpoint.port = String(env.S3_PORT);
  return endpoint.origin;
}

/** The password in a connection URI (mongodb://user:password@host/...), if any. */
function passwordIn(uri: string | undefined): string | undefined {
  // Not new URL(): a replica set URI lists several host:port pairs, which WHATWG URLs refuse.
  const password = uri && /^[a-z+]+:\/\/[^:@/]*:([^@/]*)@/i.exec(uri)?.[1];
  if (!password) return undefined;
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}

export interface Endpoint {
  http: number;
  grpc: number;
}

export interface PlatformConfig {
  env: Env;
  services: ServiceName[];
  /** True when more than one service shares this process. */
  allInOne: boolean;
  /** Where each service listens, for the services of this process. */
  listen(service: ServiceName): Endpoint;
  /** The gRPC address of any service (this process's or a peer's). */
  grpcAddress(service: ServiceName): string;
  /** The internal HTTP base URL of a service (e.g. storage's object endpoints). */
  httpUrl(service: ServiceName): string;
  dataDir: string;
  /** Ports actually bound by this process's services (filled in by the runtime as they start). */
  bound: Map<ServiceName, Endpoint>;
  /**
   * What browsers see, without a trailing slash: links in mail, signed object URLs, the embedded issuer.
   * PUBLIC_URL when set; otherwise the gateway of this process at the port it really listens on (so
   * HTTP_PORT=8095 or an OS-picked port gives working links), or the default gateway port when the
   * gateway runs elsewhere.
   */
  readonly publicUrl: string;
  /** Called by the runtime once the gateway listens, before any service starts. */
  gatewayListening(port: number): void;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseServices(spec: string): ServiceName[] {
  const names = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes('all')) return [...SERVICE_NAMES];
  const unknown = names.filter((n) => !isServiceName(n));
  if (unknown.length) {
    throw new ConfigError(
      `Unknown service(s): ${unknown.join(', ')}. Known: all, ${SERVICE_NAMES.join(', ')}.`,
    );
  }
  // Keep the graph's order (dependencies first) whatever order the user typed.
  return SERVICE_NAMES.filter((n) => names.includes(n));
}

export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  argv: string[] = process.argv.slice(2),
): PlatformConfig {
  const flag = argv.find((a) => a.startsWith('--services='));
  const merged = { ...source, ...(flag ? { OMNI_SERVICES: flag.slice('--services='.length) } : {}) };
  // Empty strings mean "not set", as shells and Helm often produce them.
  const cleaned = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const services = parseServices(env.OMNI_SERVICES);
  const allInOne = services.length > 1;

  const bound = new Map<ServiceName, Endpoint>();
  const listen = (service: ServiceName): Endpoint => {
    const defaults = DEFAULT_PORTS[service];
    if (env.OMNI_RANDOM_PORTS) return { http: service === 'gateway' ? (env.HTTP_PORT ?? 0) : 0, grpc: 0 };
    if (allInOne) {
      // Only the gateway's port is overridable in all-in-one mode: it is the one users open.
      return service === 'gateway' ? { ...defaults, http: env.HTTP_PORT ?? defaults.http } : defaults;
    }
    return { http: env.HTTP_PORT ?? 8080, grpc: env.GRPC_PORT ?? 50051 };
  };

  const peerVar = (service: ServiceName, suffix: string) => source[`${service.toUpperCase()}_${suffix}`];
  let gatewayPort: number | undefined;

  return {
    env,
    services,
    allInOne,
    listen,
    grpcAddress(service) {
      const explicit = peerVar(service, 'GRPC_ADDR');
      if (explicit) return explicit;
      const actual = bound.get(service);
      if (actual) return `${env.INTERNAL_HOST}:${actual.grpc}`;
      if (services.includes(service)) return `${env.INTERNAL_HOST}:${listen(service).grpc}`;
      return `${env.INTERNAL_HOST}:${DEFAULT_PORTS[service].grpc}`;
    },
    httpUrl(service) {
      const explicit = peerVar(service, 'HTTP_URL');
      if (explicit) return explicit.replace(/\/$/, '');
      const p =
        bound.get(service)?.http ??
        (services.includes(service) ? listen(service).http : DEFAULT_PORTS[service].http);
      return `http://${env.INTERNAL_HOST}:${p}`;
    },
    dataDir: env.DATA_DIR,
    bound,
    get publicUrl() {
      if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, '');
      if (!services.includes('gateway')) return `http://localhost:${DEFAULT_PORTS.gateway.http}`;
      const port = gatewayPort ?? listen('gateway').http;
      // Only an OS-picked port (0) is unknown before binding; the runtime binds the gateway first.
      if (!port) throw new Error('The public URL is known once the gateway listens (PUBLIC_URL is unset).');
      return `http://${browserHost(env.BIND_HOST)}:${port}`;
    },
    gatewayListening(port) {
      gatewayPort = port;
    },
  };
}

/** How a browser on this machine names a bind address: localhost for loopback and every-interface binds. */
function browserHost(bindHost: string): string {
  if (['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost', ''].includes(bindHost)) return 'localhost';
  return bindHost.includes(':') ? `[${bindHost}]` : bindHost;
}
