// A real pino logger whose lines are kept in memory, so tests can read what an adapter logged (and check
// what it must never log, such as a secret key).
import { Writable } from 'node:stream';
import type { Logger } from '@omni/platform';
import pino from 'pino';

export interface CapturedLogger {
  logger: Logger;
  /** Every line written so far, as text. */
  text(): string;
  /** Every line written so far, parsed. */
  lines(): Array<Record<string, unknown> & { level: number; msg: string }>;
}

export function capturedLogger(): CapturedLogger {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}
