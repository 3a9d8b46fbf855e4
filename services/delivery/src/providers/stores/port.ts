// The store registry port: one StoreProfile per platform key, from the embedded simulator's defaults or a
// registry file (STORES=simulator | registry).
import type { StoreProfile } from './profile';

export interface StoreRegistry {
  readonly mode: 'simulator' | 'registry';
  get(key: string): StoreProfile | undefined;
  /** Every store, in the platform list's order. */
  all(): StoreProfile[];
}

export function registryOf(mode: StoreRegistry['mode'], profiles: StoreProfile[]): StoreRegistry {
  const byKey = new Map(profiles.map((p) => [p.key, p]));
  return { mode, get: (key) => byKey.get(key), all: () => [...profiles] };
}
