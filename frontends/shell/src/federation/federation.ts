import { init, loadRemote } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { RemoteUnavailable } from '../components/remote-unavailable';
import type { RemoteName } from '../routes/route-table';
import { fetchAppConfig } from './app-config';
import { remoteFallbackPlugin } from './remote-fallback-plugin';

let ready: Promise<void> | null = null;

/**
 * Registers the remotes named by /app-config.json with the federation runtime the build created for
 * the shell (same name, so `init` extends it rather than making a second instance). Runs once; it
 * only fetches the small config, remotes themselves are fetched when a route needs them.
 */
export function ensureFederation(): Promise<void> {
  ready ??= fetchAppConfig()
    .then((config) => {
      init({
        name: 'shell',
        // Load only the remote a route asks for (see rspack.base.mjs).
        shareStrategy: 'loaded-first',
        remotes: Object.entries(config.remotes).map(([name, entry]) => ({ name, entry })),
        plugins: [remoteFallbackPlugin(RemoteUnavailable)],
      });
    })
    .catch((error: unknown) => {
      ready = null; // let a later navigation try again
      throw error;
    });
  return ready;
}

type PageModule = { default: ComponentType };

function isPageModule(value: unknown): value is PageModule {
  if (typeof value !== 'object' || value === null) return false;
  const component: unknown = (value as { default?: unknown }).default;
  // Function components, and memo/forwardRef objects.
  return typeof component === 'function' || (typeof component === 'object' && component !== null);
}

/** Loads `remote/expose` (e.g. marketing/./MusicPage) and returns its default-exported component. */
export async function loadRemotePage(remote: RemoteName, expose: string): Promise<PageModule> {
  await ensureFederation();
  const id = `${remote}/${expose.replace(/^\.\//, '')}`;
  const loaded = await loadRemote<unknown>(id);
  if (!isPageModule(loaded)) throw new Error(`Remote module "${id}" has no default component export`);
  return loaded;
}
