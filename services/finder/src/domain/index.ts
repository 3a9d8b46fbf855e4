// What the rest of the finder service uses of the scan's rules.
export * from './identifiers';
export { registryKeys } from './registry-keys';
export type { CatalogueRecording, PlayCount, Scanner } from './scan-model';
export { createScanner, type ScannerOptions } from './scanner';
