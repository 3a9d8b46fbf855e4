// STORES=simulator (the default outside production): every platform key is a folder on this machine,
// `<dataDir>/delivery/stores/<key>`, which the embedded store simulator watches. An optional
// `<dataDir>/delivery/stores.json` ({"<key>": {"audio": {...}}}) gives a simulated store the audio rules
// a registry entry could give a real one (e.g. a FLAC-only store), so that path can be tried locally.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PLATFORM_KEYS, PLATFORMS } from '@omni/proto/api';
import { z } from 'zod';
import { defaultRules, simulatedPartyId } from './defaults';
import { audioRules, StoreRegistryError } from './file';
import { registryOf, type StoreRegistry } from './port';
import type { StoreProfile } from './profile';

/** The simulator's root: one folder per store under it. */
export const simulatorRoot = (dataDir: string) => path.resolve(dataDir, 'delivery', 'stores');

// Partial: a store not named keeps its default rules.
const overridesSchema = z.partialRecord(
  z.enum(PLATFORM_KEYS as unknown as [string, ...string[]]),
  z.strictObject({ audio: audioRules }),
);

function overrides(dataDir: string): z.infer<typeof overridesSchema> {
  const file = path.resolve(dataDir, 'delivery', 'stores.json');
  if (!existsSync(file)) return {};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new StoreRegistryError(`simulated store rules ${file} cannot be read: ${(err as Error).message}`);
  }
  const parsed = overridesSchema.safeParse(json);
  if (!parsed.success)
    throw new StoreRegistryError(`simulated store rules ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function simulatorRegistry(dataDir: string): StoreRegistry {
  const root = simulatorRoot(dataDir);
  const rules = overrides(dataDir);
  const profiles: StoreProfile[] = PLATFORMS.map(({ key, name }) => ({
    key,
    name,
    partyId: simulatedPartyId(key),
    partyName: name,
    endpoint: { protocol: 'local', root: path.join(root, key) },
    ...defaultRules(key),
    ...rules[key],
  }));
  return registryOf('simulator', profiles);
}
