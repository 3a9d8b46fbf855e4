// The house rules that keep the two modes honest, checked on every run: services reach infrastructure
// only through the platform's ports, never import each other, and only the binary knows them all.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '../..');
const SERVICES = ['gateway', 'identity', 'catalog', 'storage', 'delivery', 'billing', 'cms', 'finder'];
const ENGINES = ['kafkajs', 'mongoose', 'mongodb', 'minio', 's3rver', 'stripe', 'nodemailer'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

const serviceFiles = SERVICES.flatMap((s) =>
  sources(join(root, 'services', s, 'src')).map((f) => ({ service: s, file: f })),
);

it('finds the service sources it checks', () => {
  expect(serviceFiles.length).toBeGreaterThan(SERVICES.length);
});

it('no service imports an infrastructure client or an embedded engine', () => {
  const offenders = serviceFiles.flatMap(({ file }) =>
    importsOf(file)
      .filter(
        (spec) => ENGINES.some((e) => spec === e || spec.startsWith(`${e}/`)) || spec.includes('/adapters/'),
      )
      .map((spec) => `${relative(root, file)} imports ${spec}`),
  );
  expect(offenders).toEqual([]);
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
