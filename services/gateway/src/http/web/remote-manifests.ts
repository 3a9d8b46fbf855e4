// What each exposed page of a remote needs before it can render, read from the remote's build manifest
// (frontends/<remote>/dist/mf-manifest.json, written by the module federation plugin). The gateway
// names these files in the first response for a screen, so the browser fetches the page's code while
// it is still parsing the shell's, instead of discovering it three round trips later (shell → remote
// entry → the page's chunks).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const assetList = z.object({ sync: z.array(z.string()), async: z.array(z.string()) });
const Manifest = z.object({
  metaData: z.object({ publicPath: z.string() }),
  exposes: z.array(
    z.object({
      // The exposed module's name without './', e.g. 'DashboardPage'.
      name: z.string(),
      assets: z.object({ js: assetList, css: assetList }),
    }),
  ),
});

/** The files one exposed page loads at once: its scripts and its stylesheets, as absolute paths. */
export interface PageAssets {
  scripts: string[];
  styles: string[];
}

/** remote → exposed module ('./DashboardPage') → what it loads. */
export type RemoteManifests = Map<string, Map<string, PageAssets>>;

export const manifestFile = (frontendsDir: string, remote: string) =>
  join(frontendsDir, remote, 'dist', 'mf-manifest.json');

/**
 * Every built remote's pages and their files. A remote that is not built has none; a manifest that
 * does not parse is a build defect and throws, naming the file.
 */
export function loadRemoteManifests(frontendsDir: string, remotes: readonly string[]): RemoteManifests {
  const manifests: RemoteManifests = new Map();
  for (const remote of remotes) {
    const file = manifestFile(frontendsDir, remote);
    if (!existsSync(file)) continue;
    const parsed = Manifest.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success)
      throw new Error(`${file} is not a module federation manifest: ${parsed.error.message}`);
    const { publicPath } = parsed.data.metaData;
    const pages = new Map<string, PageAssets>();
    for (const expose of parsed.data.exposes) {
      pages.set(`./${expose.name}`, {
        scripts: expose.assets.js.sync.map((name) => `${publicPath}${name}`),
        styles: expose.assets.css.sync.map((name) => `${publicPath}${name}`),
      });
    }
    manifests.set(remote, pages);
  }
  return manifests;
}
