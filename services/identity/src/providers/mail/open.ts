// Which mailer this process gets: SMTP (production) or the dev mailbox under DATA_DIR/mailbox, which
// identity serves at /dev/mailbox (http/mailbox.ts). nodemailer is loaded only when SMTP is chosen.
import { join, resolve } from 'node:path';
import { adapterLine, type Logger, openAdapter, type PlatformConfig } from '@omni/platform';
import type { Mailer } from './port';

const mailboxDir = (config: PlatformConfig) => join(resolve(config.dataDir), 'mailbox');

export function openMailer(config: PlatformConfig, logger: Logger): Promise<Mailer> {
  const env = config.env;
  return openAdapter(`mail (${env.MAIL})`, async () => {
    if (env.MAIL === 'smtp') {
      const { createSmtpMailer } = await import('./smtp');
      return createSmtpMailer({ url: env.SMTP_URL!, from: env.MAIL_FROM, logger });
    }
    const { createEmbeddedMailer } = await import('./embedded');
    return createEmbeddedMailer({ dataDir: mailboxDir(config), logger });
  });
}

export const describeMailer = (config: PlatformConfig) =>
  adapterLine('mail', `dev mailbox at ${mailboxDir(config)}`, 'smtp', config.env.MAIL === 'smtp');
