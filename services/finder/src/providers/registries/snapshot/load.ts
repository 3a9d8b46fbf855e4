// Finds the newest snapshot file of each registry in a folder (FORMAT.md) and loads it. A registry without a
// file gets no connector: the scan reports it as not checked.
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { REGISTRY_IDS, type RegistryConnector, type RegistryId, type RegistryKeys } from '../port';
import { parseSnapshot } from './parse';

const FILE_NAME = /^(soundexchange|ppl|impel)-(\d{4}-\d{2}-\d{2})\.csv$/;

/** <DATA_DIR>/finder/registries */
export const registriesFolder = (dataDir: string): string => join(dataDir, 'finder', 'registries');

export async function loadSnapshots(folder: string, keys: RegistryKeys): Promise<RegistryConnector[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const newest = new Map<RegistryId, { date: string; name: string }>();
  for (const name of names) {
    const match = FILE_NAME.exec(name);
    if (!match) continue;
    const [, registry, date] = match as unknown as [string, RegistryId, string];
    const current = newest.get(registry);
    if (!current || current.date < date) newest.set(registry, { date, name });
  }
  const connectors: RegistryConnector[] = [];
  for (const id of REGISTRY_IDS) {
    const file = newest.get(id);
    if (file)
      connectors.push(
        await parseSnapshot(id, file.date, createReadStream(join(folder, file.name)), keys, file.name),
      );
  }
  return connectors;
}
