// The house rules that keep the two modes honest, checked on every run: services reach infrastructure
// only through the platform's ports or their own providers' adapters, never import each other, only the binary knows them all, and what
// each service calls, publishes and consumes is what it declares.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ServiceName } from '@omni/platform';
import { events } from '@omni/proto';
import { CHART_GRAPH_FILE, chartGraph, withDiagram } from '@omni/server/src/graph-docs';
import { MODULES } from '@omni/server/src/modules';

const root = join(__dirname, '../..');
const SERVICES = [
  'gateway',
  'identity',
  'catalog',
  'storage',
  'delivery',
  'billing',
  'cms',
  'finder',
  'royalties',
];
const ENGINES = [
  'kafkajs',
  'mongoose',
  'mongodb',
  'minio',
  '@20minutes/s3rver',
  'ssh2-sftp-client',
  'stripe',
  'nodemailer',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  // Type-only imports leave nothing at run time (a port may speak its provider's types).
  const text = readFileSync(file, 'utf8').replace(/^import type [^;]*;/gm, '');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

const serviceFiles = SERVICES.flatMap((s) =>
  sources(join(root, 'services', s, 'src')).map((f) => ({ service: s, file: f })),
);

it('finds the service sources it checks', () => {
  expect(serviceFiles.length).toBeGreaterThan(SERVICES.length);
});

/** An adapter of a service's own provider: src/providers/<port>/<adapter>/… (port.ts and open.ts are not). */
const inProviderAdapter = (file: string) => /\/src\/providers\/[^/]+\/[^/]+\//.test(file);

it('no service imports an infrastructure client or an embedded engine outside its providers’ adapters', () => {
  const offenders = serviceFiles.flatMap(({ file }) =>
    importsOf(file)
      .filter(() => !inProviderAdapter(file))
      .filter(
        (spec) => ENGINES.some((e) => spec === e || spec.startsWith(`${e}/`)) || spec.includes('/adapters/'),
      )
      .map((spec) => `${relative(root, file)} imports ${spec}`),
  );
  expect(offenders).toEqual([]);
});

/** The rules of a service: what it decides, in its own terms (README "Architecture"). */
const inRules = (file: string) => /\/src\/(domain|store|use-cases)\//.test(file);

/** Every module a file names, type-only imports and `import('x')` type references included. */
const everyImportOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );

it('a service’s rules (domain, store, use-cases) never name an engine, not even its types', () => {
  // A provider's shapes stay in its adapter, which maps them into the service's own types (billing's
  // providers/payments/stripe turns Stripe's events and subscriptions into billing's PaymentEvent and
  // SubscriptionFacts): the rules then never change when a provider's API version does.
  const offenders = serviceFiles
    .filter(({ file }) => inRules(file))
    .flatMap(({ file }) =>
      everyImportOf(file)
        .filter((spec) => ENGINES.some((e) => spec === e || spec.startsWith(`${e}/`)))
        .map((spec) => `${relative(root, file)} imports ${spec}`),
    );
  expect(offenders).toEqual([]);
  // The check reads what it is meant to: billing's rules exist and are among the files read.
  expect(serviceFiles.some(({ file }) => /billing\/src\/use-cases\/apply-event\.ts$/.test(file))).toBe(true);
});

it('no service imports another service', () => {
  const offenders = serviceFiles.flatMap(({ service, file }) =>
    importsOf(file)
      .filter((spec) => /^@omni\/service-/.test(spec) && spec !== `@omni/service-${service}`)
      .map((spec) => `${relative(root, file)} imports ${spec}`),
  );
  expect(offenders).toEqual([]);
});

it('platform code outside adapters does not import an engine statically', () => {
  const files = sources(join(root, 'services/platform/src')).filter((f) => !f.includes('/adapters/'));
  const offenders = files.flatMap((file) =>
    importsOf(file)
      .filter((spec) => ENGINES.includes(spec))
      .map((spec) => `${relative(root, file)} imports ${spec}`),
  );
  expect(offenders).toEqual([]);
});

// The declared service graph (each services/<name>/src/index.ts) against what the code does: every service
// another service's code names as a peer is among its declared calls, and the events it publishes and
// subscribes to are exactly those it declares. The runtime refuses undeclared calls and ports as it starts;
// this catches them before anything runs, and catches declarations that outlived the code.
describe('the declared service graph', () => {
  const literals = (pattern: RegExp, text: string) => [...text.matchAll(pattern)].map((m) => m[1]!);
  const codeOf = (service: string) =>
    serviceFiles.filter((f) => f.service === service).map(({ file }) => readFileSync(file, 'utf8'));
  const eventTypes = Object.keys(events.catalogue);

  it.each(SERVICES)('%s calls only the services it declares', (service) => {
    const named = codeOf(service).flatMap((text) => [
      ...literals(/\bclient\(\s*'([a-z]+)'/g, text),
      ...literals(/\bhttpUrl\(\s*'([a-z]+)'/g, text),
      ...literals(/\bgrpcAddress\(\s*'([a-z]+)'/g, text),
    ]);
    const declared = MODULES[service as ServiceName].calls;
    const undeclared = [...new Set(named)].filter(
      (peer) => peer !== service && !declared.includes(peer as ServiceName),
    );
    expect(undeclared).toEqual([]);
  });

  it.each(SERVICES)('%s publishes exactly the events it declares', (service) => {
    const published = codeOf(service).flatMap((text) => literals(/outbox\.add\(\s*\w+,\s*'([\w.]+)'/g, text));
    expect([...new Set(published)].sort()).toEqual([...MODULES[service as ServiceName].produces].sort());
  });

  it.each(SERVICES)('%s subscribes to exactly the events it declares', (service) => {
    const subscribed = codeOf(service)
      .filter((text) => /\bconsumeEvents\(|\.subscribe\(/.test(text))
      .flatMap((text) => literals(/'([a-z]+\.[a-z]+)'/g, text))
      .filter((type) => eventTypes.includes(type));
    expect([...new Set(subscribed)].sort()).toEqual([...MODULES[service as ServiceName].consumes].sort());
  });

  it('every consumed event has a producer, and every declared call names a service', () => {
    const produced = new Set(SERVICES.flatMap((s) => MODULES[s as ServiceName].produces));
    const orphans = SERVICES.flatMap((s) =>
      MODULES[s as ServiceName].consumes.filter((t) => !produced.has(t)).map((t) => `${s} consumes ${t}`),
    );
    expect(orphans).toEqual([]);
    for (const s of SERVICES)
      for (const callee of MODULES[s as ServiceName].calls) expect(SERVICES).toContain(callee);
  });

  it('README.md and the chart carry the current graph (npm run graph:gen)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toBe(withDiagram(readme, MODULES));
    expect(readFileSync(join(root, CHART_GRAPH_FILE), 'utf8')).toBe(chartGraph(MODULES));
  });
});

it('royalties’ payouts speak Omni’s types: Stripe is named only in providers/payouts/stripe-connect', () => {
  // The port (providers/payouts/port.ts), the payout rules and the sandbox's logic name no Stripe type; the
  // Stripe Connect adapter maps Stripe's accounts, transfers and payouts into PayoutEvent and AccountFacts.
  const royalties = serviceFiles.filter(({ service }) => service === 'royalties');
  const offenders = royalties
    .filter(({ file }) => !/\/src\/providers\/payouts\/stripe-connect\//.test(file))
    .flatMap(({ file }) =>
      everyImportOf(file)
        .filter((spec) => spec === 'stripe' || spec.startsWith('stripe/'))
        .map((spec) => `${relative(root, file)} imports ${spec}`),
    );
  expect(offenders).toEqual([]);
  // The check reads what it is meant to: the adapter exists and names Stripe.
  const adapter = royalties.find(({ file }) => /providers\/payouts\/stripe-connect\/index\.ts$/.test(file));
  expect(adapter && everyImportOf(adapter.file)).toContain('stripe');
});
