// The keys registry adapters index by: the same identifier and name rules the scan compares with, so a
// snapshot's "US-S1Z-24-00001" and the catalogue's "USS1Z2400001" meet. Handed to the adapters by index.ts.
import type { RegistryKeys } from '../providers/registries/port';
import { nameKey } from './credits/people';
import { checkIsrc, checkIswc } from './identifiers';

export const registryKeys: RegistryKeys = { isrc: checkIsrc, iswc: checkIswc, name: nameKey };
