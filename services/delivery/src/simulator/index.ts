// The embedded store simulator (STORES=simulator): what engineer P wires into the delivery service.
export { ACCEPT, DEFAULT_REASONS, type SimulatorBehaviour } from './behaviour';
export {
  monthPeriod,
  monthToDate,
  type SalePeriod,
  type StoreReportsResult,
  type WriteStoreReportsOptions,
  writeStoreReports,
} from './reports';
export {
  type BatchOutcome,
  createStoreSimulator,
  type SimulatorBatch,
  type SimulatorStats,
  type StoreSimulator,
  type StoreSimulatorOptions,
} from './simulator';
