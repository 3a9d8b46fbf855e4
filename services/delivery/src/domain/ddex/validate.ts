// Validates an ERN 4.3 message against the DDEX XSD (services/delivery/ddex/ern43) with libxml2 compiled
// to WebAssembly: no native build, no network. A message that fails must never leave for a store.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

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

export const ERN43_SCHEMA = join(__dirname, '../../../ddex/ern43/release-notification.xsd');

type Reply = { id: number; result?: ErnValidationResult; error?: string };

/** A validator with its own worker; the schema is parsed once. Close it when done. */
export function createErnValidator(schemaPath = ERN43_SCHEMA): ErnValidator {
  const worker = new Worker(join(__dirname, 'validate-worker.mjs'), { workerData: { schemaPath } });
  // An idle validator must not keep the process alive.
  worker.unref();
  const pending = new Map<
    number,
    { resolve: (r: ErnValidationResult) => void; reject: (e: Error) => void }
  >();
  let next = 0;
  let failure: Error | undefined;
  const failAll = (err: Error) => {
    failure = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', ({ id, result, error }: Reply) => {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (result) p.resolve(result);
    else p.reject(new Error(`ERN validation failed to run: ${error}`));
    if (pending.size === 0) worker.unref();
  });
  worker.on('error', (err) => failAll(new Error(`ERN validator stopped: ${err.message}`)));
  worker.on('exit', (code) => failAll(new Error(`ERN validator exited (code ${code})`)));

  return {
    validate(xml) {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, xml });
      });
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
