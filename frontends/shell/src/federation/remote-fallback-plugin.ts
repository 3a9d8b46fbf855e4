import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

/**
 * When a remote cannot be loaded (its server is down, its manifest or a chunk 404s), answer the
 * request with a stand-in module whose default export is `Fallback`, so the route renders a
 * friendly message instead of a blank page. The original error is still logged for operators.
 */
export function remoteFallbackPlugin(Fallback: ComponentType): ModuleFederationRuntimePlugin {
  return {
    name: 'omni-remote-fallback',
    errorLoadRemote({ id, error, lifecycle }) {
      console.error(`[omni] remote module "${id}" failed to load (${lifecycle})`, error);
      // Only the module-level failure is answered: a stand-in manifest would hide the real error.
      // What is returned here is what loadRemote() resolves to, so it is the module itself.
      if (lifecycle !== 'onLoad') return undefined;
      return { __esModule: true, default: Fallback };
    },
  };
}
