export { loadSnapshots, registriesFolder } from './load';
export { parseSnapshot, SnapshotFormatError } from './parse';
