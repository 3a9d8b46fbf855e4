// Validates an ERN 4.3 message against the DDEX XSD (services/delivery/ddex/ern43) with libxml2 compiled
// to WebAssembly: no native build, no network. A message that fails must never leave for a store.
import { appPath, createLogger, type Logger, superviseWorker } from '@omni/platform';

export interface ErnValidationError {
  line: number;
  message: string;
}

export interface ErnValidationResult {
  valid: boolean;
  errors: ErnValidationError[];
}

export interface ErnValidator {
  validate(xml: string): Promise<ErnValidationResult>;
  close(): Promise<void>;
}

export const ERN43_SCHEMA = appPath('services/delivery/ddex/ern43/release-notification.xsd');

/**
 * A validator with its own worker; the schema is parsed once. Close it when done. The worker is supervised
 * (platform kit): if it dies, the cause is logged at error, the messages it held are refused with
 * WorkerUnavailableError (the delivery job retries them) and a new worker starts after a back-off.
 */
export function createErnValidator(
  schemaPath = ERN43_SCHEMA,
  logger: Pick<Logger, 'error' | 'info'> = createLogger('ern-validator'),
): ErnValidator {
  const worker = superviseWorker<{ xml: string }, ErnValidationResult>({
    name: 'ERN validator',
    file: appPath('services/delivery/src/domain/ddex/validate-worker.mjs'),
    workerData: { schemaPath },
    logger,
  });
  return {
    validate: (xml) => worker.request({ xml }),
    close: () => worker.close(),
  };
}
