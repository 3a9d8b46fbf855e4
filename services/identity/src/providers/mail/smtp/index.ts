// SMTP through nodemailer: what production sends mail with. The URL carries host, port, credentials and
// TLS (smtp://user:pass@host:587, smtps://…); it is never logged.

import type { Logger } from '@omni/platform';
import nodemailer from 'nodemailer';
import { MailError, type Mailer } from '../port';

export interface SmtpMailerOptions {
  url: string;
  from: string;
  logger?: Logger;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    kind: 'smtp',
    async send(message) {
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
        options.logger?.info({ to: message.to, messageId: info.messageId }, 'mail sent');
      } catch (err) {
        // nodemailer's error may quote the SMTP dialogue; keep only its code.
        const code = (err as { code?: string }).code ?? 'unknown';
        options.logger?.warn({ to: message.to, code }, 'mail sending failed');
        throw new MailError(`The mail server refused the message (${code}).`);
      }
    },
    async ready() {
      try {
        await transport.verify();
      } catch (err) {
        throw new MailError(`SMTP server not reachable: ${(err as { code?: string }).code ?? 'error'}`);
      }
    },
    async healthy() {
      return transport.verify().then(
        () => true,
        () => false,
      );
    },
    async close() {
      transport.close();
    },
  };
}
