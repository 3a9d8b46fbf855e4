// Which registries a scan can ask: today the snapshot files under DATA_DIR/finder/registries (FORMAT.md
// beside the adapter). Read at the start of each scan, so a snapshot an operator drops in is used by the
// next scan without a restart. A live connector will be chosen here from configuration.
import type { PlatformConfig } from '@omni/platform';
import type { RegistryConnector, RegistryKeys } from './port';
import { loadSnapshots, registriesFolder } from './snapshot';

export const openRegistries =
  (config: PlatformConfig, keys: RegistryKeys) => (): Promise<RegistryConnector[]> =>
    loadSnapshots(registriesFolder(config.dataDir), keys);

/** The start-up banner's line for this provider. */
export const describeRegistries = (config: PlatformConfig) =>
  `snapshot files in ${registriesFolder(config.dataDir)} (not live)`;
