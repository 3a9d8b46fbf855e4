// The inner layout every service shares (README, docs/architecture.md §1): one module file and the same
// few folders, with dependencies pointing inward, and a gRPC layer that only adapts requests to the
// use cases and repositories behind it. Checked on every run so a new file lands where a reader expects it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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

/**
 * The folders a service's src/ may hold, innermost first; a folder may import only from itself and earlier
 * ones. providers/ holds the ports only this service uses and their adapters (objects for storage, identity
 * and mail for identity, rate limits for the gateway): it sits beside store/ as the other way out to the
 * world, and imports nothing of the service (only the platform kit), so every layer may use its ports.
 */
const LAYERS = [
  'providers',
  'domain',
  'store',
  'use-cases',
  'events',
  'http',
  'grpc',
  'worker',
  'simulator',
] as const;
/**
 * The outer adapters never import one another: each adapts its own trigger to the inner layers. Two more
 * exist only in delivery: worker/ (the clock and the approval drive its use cases, as a request drives
 * http/) and simulator/ (the embedded stores: the far side of the transport, which applies the DDEX rules
 * a store applies). Only the module file wires them in.
 */
const ADAPTERS = new Set(['events', 'http', 'grpc', 'worker', 'simulator']);

/** A gRPC file longer than this is doing more than adapting; its steps belong in use-cases/. */
const GRPC_FILE_MAX_LINES = 220;
/**
 * Calls on the documents and objects ports: repositories (store/) and use cases make them, never grpc/.
 * A call with a type argument (`.collection<JobDoc>(`) is one too; `.find(` is flagged whatever it is called
 * on, so a gRPC file reads no port and searches no list (a repository method says what it looks up).
 */
const PORT_CALLS =
  /\.(collection|find|findOne|findById|findOneAndUpdate|insertOne|updateOne|updateMany|deleteOne|deleteMany|transaction|nextSequence|statObject|presignPut|removeObject|bucketExists|getObject)\s*(<[^>()]*>)?\s*\(/;
/** Opening a collection of the documents port, with or without a type argument. */
const OPENS_COLLECTION = /\.collection\s*(<[^>()]*>)?\s*\(/;
/** The layers that hold a service's state: its repositories, and the providers that keep their own. */
const STATE_LAYERS = new Set(['store', 'providers']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

const relativeImports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );

/** The layer a file of a service's src/ sits in ('' for src/index.ts). */
const layerOf = (srcDir: string, file: string) => relative(srcDir, file).split('/').slice(0, -1)[0] ?? '';

describe.each(SERVICES)('%s', (service) => {
  const src = join(root, 'services', service, 'src');

  it('has src/index.ts and only the shared folders beside it', () => {
    expect(existsSync(join(src, 'index.ts'))).toBe(true);
    const strays = readdirSync(src).filter((name) =>
      statSync(join(src, name)).isDirectory()
        ? !(LAYERS as readonly string[]).includes(name)
        : name !== 'index.ts',
    );
    expect(strays).toEqual([]);
  });

  it('imports point inward: providers ← domain ← store ← use-cases ← events | http | grpc', () => {
    const offenders = sources(src).flatMap((file) => {
      const from = layerOf(src, file);
      if (from === '') return [];
      return relativeImports(file)
        .map((spec) => ({ spec, to: layerOf(src, join(file, '..', spec)) }))
        .filter(({ to }) => {
          if (to === from) return false;
          if (to === '') return true; // nothing imports the module file
          const inner =
            LAYERS.indexOf(to as (typeof LAYERS)[number]) < LAYERS.indexOf(from as (typeof LAYERS)[number]);
          return !inner || (ADAPTERS.has(from) && ADAPTERS.has(to));
        })
        .map(({ spec }) => `${relative(root, file)} (${from}) imports ${spec}`);
    });
    expect(offenders).toEqual([]);
  });

  it('grpc/ only adapts: no calls on the documents or objects ports, and files within the size budget', () => {
    const grpc = join(src, 'grpc');
    const files = existsSync(grpc) ? sources(grpc) : [];
    const offenders = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const lines = text.split('\n').length;
      const found: string[] = [];
      if (lines > GRPC_FILE_MAX_LINES) found.push(`${relative(root, file)} has ${lines} lines`);
      text.split('\n').forEach((line, i) => {
        if (PORT_CALLS.test(line)) found.push(`${relative(root, file)}:${i + 1} ${line.trim()}`);
      });
      return found;
    });
    expect(offenders).toEqual([]);
  });
});

describe('one writer per piece of state', () => {
  it.each(SERVICES)('%s opens its collections only in store/ (or a provider of its own)', (service) => {
    const src = join(root, 'services', service, 'src');
    const offenders = sources(src).flatMap((file) =>
      STATE_LAYERS.has(layerOf(src, file))
        ? []
        : readFileSync(file, 'utf8')
            .split('\n')
            .flatMap((line, i) => (OPENS_COLLECTION.test(line) ? [`${relative(root, file)}:${i + 1}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it("delivery's jobs are read and written by one module, which moves them by one table", () => {
    const src = join(root, 'services/delivery/src');
    const owner = join(src, 'store/jobs.ts');
    const others = sources(src).filter(
      (file) =>
        file !== owner &&
        /\bJOBS\b|delivery_jobs/.test(readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')),
    );
    // collections.ts only names it for the repository.
    expect(others.map((f) => relative(src, f))).toEqual(['store/collections.ts']);
    expect(readFileSync(owner, 'utf8')).toMatch(/mayMove\(/);
  });
});

describe("the gateway's routes", () => {
  const http = join(root, 'services/gateway/src/http');
  /** Pieces of the edge every group uses; any other file belongs in the folder of the service behind it. */
  const EDGE = ['health.ts', 'proxy-path.ts', 'proxy.ts'];

  it('are grouped by the service behind them (and web/ for the web app)', async () => {
    const { gatewayService } = await import('../../services/gateway/src');
    const groups = readdirSync(http).filter((name) => statSync(join(http, name)).isDirectory());
    const allowed = new Set<string>(['web', ...gatewayService.calls]);
    expect(groups.filter((g) => !allowed.has(g))).toEqual([]);
    const loose = readdirSync(http).filter((name) => /\.tsx?$/.test(name) && !EDGE.includes(name));
    expect(loose).toEqual([]);
  });
});
