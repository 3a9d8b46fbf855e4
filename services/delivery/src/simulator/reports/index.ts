// The simulated stores' reports: DSR statements and daily trend files for a sale period (sales-report.ts),
// the model behind their figures (sales-model.ts, MODEL.md) and the DSR writer the royalties bench reuses.
export {
  createDsrWriter,
  type DsrHead,
  type DsrWriter,
  type Sr08Line,
  SummaryTotals,
  type Sy10Summary,
} from './dsr-writer';
export { formatNano, parseNano } from './nano';
export {
  monthPeriod,
  monthToDate,
  periodLabel,
  type SalePeriod,
  type StoreReportsResult,
  type WriteStoreReportsOptions,
  writeStoreReports,
} from './sales-report';
