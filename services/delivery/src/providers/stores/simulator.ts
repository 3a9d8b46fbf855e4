// STORES=simulator (the default outside production): every platform key is a folder on this machine,
// `<dataDir>/delivery/stores/<key>`, which the embedded store simulator watches.
import path from 'node:path';
import { PLATFORMS } from '@omni/proto/api';
import { defaultRules, simulatedPartyId } from './defaults';
import { registryOf, type StoreRegistry } from './port';
import type { StoreProfile } from './profile';

/** The simulator's root: one folder per store under it. */
export const simulatorRoot = (dataDir: string) => path.resolve(dataDir, 'delivery', 'stores');

export function simulatorRegistry(dataDir: string): StoreRegistry {
  const root = simulatorRoot(dataDir);
  const profiles: StoreProfile[] = PLATFORMS.map(({ key, name }) => ({
    key,
    name,
    partyId: simulatedPartyId(key),
    partyName: name,
    endpoint: { protocol: 'local', root: path.join(root, key) },
    ...defaultRules(key),
  }));
  return registryOf('simulator', profiles);
}
