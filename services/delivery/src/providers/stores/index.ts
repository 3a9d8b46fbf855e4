// The store registry (which stores exist, where and how to deliver to them) and opening their transports.
export { defaultDeals, defaultRules, simulatedPartyId } from './defaults';
export { fileRegistry, parseRegistry, StoreRegistryError } from './file';
export { openStoreRegistry, openTransport } from './open';
export type { StoreRegistry } from './port';
export { simulatorRegistry, simulatorRoot } from './simulator';
