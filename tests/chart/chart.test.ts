// The umbrella chart, checked by a real helm with no network: `helm lint --strict` and `helm template` for the default
// values and every file under charts/omni/ci (plus the Tilt values), and every rendered object type-checked against the
// Kubernetes API's types so that a misspelled field fails here rather than at `kubectl apply`.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callersOf } from '@omni/platform';
import { MODULES } from '@omni/server/src/modules';
import { parseAllDocuments } from 'yaml';
import { helm } from './helm';
import { checkObjects, type KubeObject } from './kube-types';

const chart = 'charts/omni';
const repoRoot = path.resolve(__dirname, '../..');
const cases: [string, string[]][] = [
  ['default values', []],
  ['values-dev.yaml', ['-f', `${chart}/values-dev.yaml`]],
  ...readdirSync(path.join(repoRoot, chart, 'ci'))
    .filter((file) => file.endsWith('.yaml'))
    .map((file): [string, string[]] => [`ci/${file}`, ['-f', `${chart}/ci/${file}`]]),
];
// ServiceMonitors render only where the Prometheus Operator's API exists; declare it so they are checked too.
const capabilities = ['--api-versions', 'monitoring.coreos.com/v1'];

async function render(chartDir: string, values: string[]): Promise<KubeObject[]> {
  const result = await helm([
    'template',
    'omni',
    chartDir,
    '--namespace',
    'omni',
    ...capabilities,
    ...values,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return parseAllDocuments(result.stdout)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

describe('charts/omni under a real helm, offline', () => {
  test('helm is the real binary and runs here', async () => {
    const result = await helm(['version', '--short']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^v3\.\d+\.\d+/);
  });

  test.each(cases)('helm lint --strict passes with %s', async (_label, values) => {
    const result = await helm(['lint', '--strict', chart, ...values]);
    expect(`${result.stdout}${result.stderr}`).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(result.code).toBe(0);
  });

  test.each(cases)('every object rendered with %s is a valid Kubernetes object', async (label, values) => {
    const objects = await render(chart, values);
    expect(objects.map((object) => object.kind)).toEqual(
      expect.arrayContaining(['Deployment', 'Service', 'ConfigMap']),
    );
    expect(checkObjects(label, objects)).toEqual([]);
  });

  test('a misspelled field in a template is caught', async () => {
    // A copy of the chart with one typo, as a careless edit would make it: the check must name the field.
    const copy = mkdtempSync(path.join(os.tmpdir(), 'omni-chart-'));
    try {
      cpSync(path.join(repoRoot, chart), copy, { recursive: true });
      const template = path.join(copy, 'templates/_component.tpl');
      writeFileSync(template, readFileSync(template, 'utf8').replace('imagePullPolicy:', 'imagePulPolicy:'));
      const problems = checkObjects('misspelled', await render(copy, []));
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.join('\n')).toContain(`'"imagePulPolicy"' does not exist in type 'Container'`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  test('only delivery mounts the store registry and its keys (owner-only), and production names no simulator', async () => {
    const objects = await render(chart, []);
    const deployments = objects.filter((object) => object.kind === 'Deployment') as unknown as Deployment[];
    const withStores = deployments
      .filter((d) => d.spec.template.spec.volumes.some((v) => v.name === 'stores'))
      .map((d) => d.metadata.labels['app.kubernetes.io/component']);
    expect(withStores).toEqual(['delivery']);
    const delivery = deployments.find(
      (d) => d.metadata.labels['app.kubernetes.io/component'] === 'delivery',
    )!;
    const volumes = Object.fromEntries(delivery.spec.template.spec.volumes.map((v) => [v.name, v]));
    expect(volumes['store-keys']?.secret).toEqual({ secretName: 'omni-store-keys', defaultMode: 0o400 });
    expect(volumes.stores?.configMap).toEqual({ name: 'omni-stores' });
    expect(volumes.data?.emptyDir).toEqual({ sizeLimit: '50Gi' });
    const config = objects.find((object) => object.kind === 'ConfigMap') as unknown as {
      data: Record<string, string>;
    };
    expect(config.data.STORES).toBe('registry');
    expect(config.data.STORE_REGISTRY_FILE).toBe('/etc/omni/stores/stores.json');
    const dev = (await render(chart, ['-f', `${chart}/values-dev.yaml`])).find(
      (object) => object.kind === 'ConfigMap',
    ) as unknown as { data: Record<string, string> };
    expect(dev.data.STORES).toBe('simulator');
  });

  test("each service's NetworkPolicy admits exactly the callers its peers declare", async () => {
    const objects = await render(chart, ['--set', 'networkPolicy.enabled=true']);
    const policies = objects.filter(
      (object) => object.kind === 'NetworkPolicy',
    ) as unknown as NetworkPolicy[];
    const callers = callersOf(MODULES);
    const admitted = Object.fromEntries(
      policies.map((policy) => [
        policy.spec.podSelector.matchLabels['app.kubernetes.io/component'],
        policy.spec.ingress
          .flatMap((rule) => rule.from ?? [])
          .flatMap((peer) => {
            const labels = peer.podSelector?.matchLabels ?? {};
            // A pod peer without a component label would admit every pod of the release.
            if (peer.podSelector) expect(labels['app.kubernetes.io/component']).toBeDefined();
            return peer.podSelector ? [labels['app.kubernetes.io/component']!] : [];
          })
          .sort(),
      ]),
    );
    expect(admitted).toEqual(callers);
    // Only the public service takes traffic from the ingress controller.
    const fromIngress = policies
      .filter((policy) =>
        policy.spec.ingress.some((rule) =>
          rule.from?.some(
            (peer) =>
              peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx',
          ),
        ),
      )
      .map((policy) => policy.spec.podSelector.matchLabels['app.kubernetes.io/component']);
    expect(fromIngress).toEqual(
      Object.values(MODULES)
        .filter((m) => m.public)
        .map((m) => m.name),
    );
  });
});

interface Deployment {
  metadata: { labels: Record<string, string> };
  spec: {
    template: {
      spec: {
        volumes: {
          name: string;
          secret?: unknown;
          configMap?: unknown;
          emptyDir?: unknown;
        }[];
      };
    };
  };
}

interface NetworkPolicyPeer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
}
interface NetworkPolicy {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    ingress: { from?: NetworkPolicyPeer[] }[];
  };
}
