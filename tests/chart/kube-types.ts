// Checks rendered Kubernetes objects against the API's own types with the TypeScript compiler: each object becomes an
// object literal annotated with its kind's type (kubernetes-types for the built-in API, the Prometheus Operator's
// models for ServiceMonitor), so a misspelled or misplaced field is an excess-property error and a wrong value type an
// assignment error. A kind with no known type fails too, so nothing rendered goes unchecked.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type KubeObject = { apiVersion?: string; kind?: string; metadata?: { name?: string } };

const repoRoot = path.resolve(__dirname, '../..');

/** Module and type name of a kind's declaration, or undefined for a kind we hold no types for. */
function typeOf(apiVersion: string, kind: string): { module: string; type: string } | undefined {
  if (apiVersion === 'monitoring.coreos.com/v1') {
    return {
      module: `@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/${kind}`,
      type: `I${kind}`,
    };
  }
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
  // kubernetes-types names each group's folder by its first label: networking.k8s.io -> networking.
  const folder = (group ?? '').split('.')[0];
  const builtIn = [
    'core',
    'apps',
    'autoscaling',
    'batch',
    'policy',
    'networking',
    'rbac',
    'storage',
    'scheduling',
  ];
  if (!folder || !version || !builtIn.includes(folder)) return undefined;
  return { module: `kubernetes-types/${folder}/${version}`, type: kind };
}

/** Type-checks the objects; returns one readable line per problem (empty when every object is valid). */
export function checkObjects(label: string, objects: KubeObject[]): string[] {
  const problems: string[] = [];
  const lines: string[] = [];
  objects.forEach((object, index) => {
    const where = `${object.kind ?? '?'} ${object.metadata?.name ?? '?'}`;
    const known = object.apiVersion && object.kind ? typeOf(object.apiVersion, object.kind) : undefined;
    if (!known) {
      problems.push(`${where}: no Kubernetes type known for ${object.apiVersion}/${object.kind}`);
      return;
    }
    lines.push(`// ${where}`);
    lines.push(
      `export const object${index}: import('${known.module}').${known.type} = ${JSON.stringify(object, null, 2)};`,
    );
  });
  // Inside the repository so the type packages resolve from its node_modules; under .cache so nothing is committed.
  const dir = path.join(repoRoot, 'node_modules/.cache/omni-chart-check');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${label.replace(/[^a-z0-9-]+/gi, '_')}.ts`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  });
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) {
      problems.push(message);
      continue;
    }
    const text = diagnostic.file.text;
    // Name the object the error is in: the nearest "// Kind name" line above it.
    const before = text.slice(0, diagnostic.start);
    const owner = before.slice(before.lastIndexOf('\n// ') + 4).split('\n')[0];
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    problems.push(`${owner}: ${message} (${path.relative(repoRoot, file)}:${line + 1})`);
  }
  return problems;
}
