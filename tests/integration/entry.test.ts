// One way to start Omni (issue 21 §1.2): `npm start`, the production image and the chart all run the same
// built entry, and that entry traces without any flag. Before, the image ran `node --import tsx main.ts`
// (TypeScript compiled in every pod, telemetry never registered) while `npm start` ran another command.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { helm } from '../chart/helm';
import { freePort, waitFor } from '../support/process';
import { builtServerEntry, SERVER_ENTRY } from '../support/server-entry';

const root = resolve(__dirname, '../..');

/** The runtime stage's CMD, as the Dockerfile writes it. */
function imageCommand(): string[] {
  const dockerfile = readFileSync(join(root, 'deploy/docker/Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  const cmd = /^CMD (\[.*\])$/m.exec(runtime);
  if (!cmd?.[1]) throw new Error('the runtime stage has no CMD');
  return JSON.parse(cmd[1]) as string[];
}

describe('the one entry', () => {
  it('is what the image, the chart and npm start run', async () => {
    const command = imageCommand();
    expect(command).toEqual(['node', 'dist/omni/main.cjs']);
    expect(join(root, command[1] ?? '')).toBe(SERVER_ENTRY);

    const rendered = await helm(['template', 'omni', 'charts/omni', '--namespace', 'omni']);
    expect(rendered.code).toBe(0);
    const deployments = parseAllDocuments(rendered.stdout)
      .map(
        (d) =>
          d.toJS() as { kind?: string; spec?: { template: { spec: { containers: { args?: string[] }[] } } } },
      )
      .filter((o) => o?.kind === 'Deployment');
    expect(deployments.length).toBeGreaterThan(0);
    for (const d of deployments)
      expect(d.spec?.template.spec.containers[0]?.args?.slice(0, 2)).toEqual(['node', 'dist/omni/main.cjs']);

    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe('node scripts/start.mjs');
    const start = readFileSync(join(root, 'scripts/start.mjs'), 'utf8');
    expect(start).toContain('(SERVER_ENTRY)');
  });

  describe('run as the image runs it', () => {
    let child: ChildProcess | undefined;
    let dataDir = '';
    afterAll(() => {
      child?.kill('SIGKILL');
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('writes spans with no loader flag', async () => {
      builtServerEntry();
      dataDir = mkdtempSync(join(tmpdir(), 'omni-entry-'));
      const traceFile = join(dataDir, 'spans.jsonl');
      const port = await freePort();
      const [node, ...args] = imageCommand();
      expect(node).toBe('node');
      child = spawn(process.execPath, args, {
        cwd: root,
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          HTTP_PORT: String(port),
          OMNI_RANDOM_PORTS: 'true',
          OMNI_TRACE_FILE: traceFile,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (d) => (output += d));
      child.stderr?.on('data', (d) => (output += d));
      const url = `http://127.0.0.1:${port}`;
      await waitFor(async () => ((await fetch(`${url}/healthz`)).ok ? true : undefined), 60_000, 'start-up');

      expect((await fetch(`${url}/api/platforms`)).status).toBe(200);
      type Span = { name: string; kind: number; service: string };
      const spans = await waitFor(
        () => {
          const all = readFileSync(traceFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Span);
          return all.some((s) => s.kind === 1 && /GET/.test(s.name)) ? all : undefined;
        },
        10_000,
        `a server span in ${traceFile}:\n${output}`,
      );
      expect(spans.every((s) => s.service === 'omni')).toBe(true);
      expect(output).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
      expect(output).not.toContain('worker stopped');
    });
  });
});
