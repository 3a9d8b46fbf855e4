// Each workspace package declares exactly the third-party packages its source imports: a package that
// uses minio says so in its own package.json (rather than inheriting it through @omni/platform), and a
// dependency nobody imports any more is dropped. Read from the package.json files and the import
// statements themselves, so a moved adapter that forgets its dependency fails here, not in a pod.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';

const root = join(__dirname, '../..');

interface Manifest {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** Every workspace package folder (the root's `workspaces`, with `dir/*` expanded). */
function workspacePackages(): string[] {
  return readJson(join(root, 'package.json')).workspaces!.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    return readdirSync(parent)
      .map((name) => join(parent, name))
      .filter((dir) => existsSync(join(dir, 'package.json')));
  });
}

/**
 * What ships in a package: its src/ folder, or (proto, which has none) the package folder itself, less
 * tests and build output. Checked: the services and proto. Not checked: the `tests` workspace (all test
 * code), and the frontends, whose remotes declare React, the router and the UI kit's packages to share them
 * as module-federation singletons (frontends/rspack.base.mjs reads their versions) without importing them.
 */
function sourceRoot(dir: string): string | undefined {
  const where = relative(root, dir);
  if (where === 'tests' || where.startsWith('frontends/')) return undefined;
  return existsSync(join(dir, 'src')) ? join(dir, 'src') : dir;
}

/** Declared but loaded otherwise than by an import: `npm run dev` and `npm run create-admin` run under tsx. */
const LOADED_NOT_IMPORTED: Record<string, string[]> = { '@omni/server': ['tsx'] };

const SKIPPED_DIRS = new Set(['node_modules', 'test', 'dist', '.artifacts']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return SKIPPED_DIRS.has(name) ? [] : sources(full);
    return /\.(c|m)?[jt]sx?$/.test(name) && !/\.d\.ts$/.test(name) ? [full] : [];
  });
}

/** Bare specifiers (not relative, not Node's own) as package names: `express/lib/x` → express, `@a/b/c` → @a/b. */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/(?:^|[^\w.])(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g),
  ].map((m) => m[1]!);
  return specs
    .filter((spec) => !spec.startsWith('.') && !spec.startsWith('/') && !spec.startsWith('node:'))
    .filter((spec) => !builtinModules.includes(spec.split('/')[0]!))
    .map((spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!));
}

const packages = workspacePackages()
  .map((dir) => ({ dir, manifest: readJson(join(dir, 'package.json')), src: sourceRoot(dir) }))
  .filter((p): p is typeof p & { src: string } => p.src !== undefined);

it('finds the workspace packages and their sources', () => {
  const names = packages.map((p) => p.manifest.name);
  expect(names).toEqual(expect.arrayContaining(['@omni/platform', '@omni/service-storage', '@omni/proto']));
});

describe.each(packages.map((p) => [p.manifest.name, p] as const))('%s', (_name, pkg) => {
  const files = sources(pkg.src);
  const imported = new Map<string, string>();
  for (const file of files) {
    for (const name of importedPackages(file))
      if (!imported.has(name)) imported.set(name, relative(root, file));
  }
  imported.delete(pkg.manifest.name);
  const declared = new Set([
    ...Object.keys(pkg.manifest.dependencies ?? {}),
    ...Object.keys(pkg.manifest.peerDependencies ?? {}),
  ]);

  it('declares every package its source imports', () => {
    const undeclared = [...imported]
      .filter(([name]) => !declared.has(name))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
  });

  it('imports every dependency it declares (type packages aside)', () => {
    const unused = [...declared].filter(
      (name) =>
        !name.startsWith('@types/') &&
        !imported.has(name) &&
        !LOADED_NOT_IMPORTED[pkg.manifest.name]?.includes(name),
    );
    expect(unused).toEqual([]);
  });
});
