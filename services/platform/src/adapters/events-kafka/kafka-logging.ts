// kafkajs logs through its own logger; route every line into our pino logger so Kafka client problems
// appear with the service's other logs (and its redaction), at the matching level.
import { type LogEntry, type logCreator, logLevel } from 'kafkajs';
import type { Logger } from '../../logging/logger';

/** The most detailed kafkajs level worth producing, given what the pino logger would keep anyway. */
export function kafkaLogLevelFor(logger: Logger): logLevel {
  if (logger.isLevelEnabled('debug')) return logLevel.DEBUG;
  if (logger.isLevelEnabled('info')) return logLevel.INFO;
  if (logger.isLevelEnabled('warn')) return logLevel.WARN;
  if (logger.isLevelEnabled('error')) return logLevel.ERROR;
  return logLevel.NOTHING;
}

export function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      // kafkajs puts its own timestamp and message in `log`; pino adds its own timestamp.
      const { message, timestamp: _timestamp, ...extra } = log;
      const fields = { kafkajs: namespace, ...extra };
      switch (level) {
        case logLevel.ERROR:
          logger.error(fields, message);
          break;
        case logLevel.WARN:
          logger.warn(fields, message);
          break;
        case logLevel.INFO:
          logger.info(fields, message);
          break;
        case logLevel.DEBUG:
          logger.debug(fields, message);
          break;
        default:
          break;
      }
    };
}
