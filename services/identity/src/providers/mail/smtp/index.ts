// SMTP through nodemailer: what production sends mail with. The URL carries host, port, credentials and
// TLS (smtp://user:pass@host:587, smtps://…); it is never logged.

import type { Logger } from '@omni/platform';
import nodemailer from 'nodemailer';
import { MailError, type Mailer } from '../port';

export interface SmtpMailerOptions {
  url: string;
  from: string;
  logger?: Logger;
  /** The longest a connection, the server's greeting or a silence mid-dialogue may take; default 10 s. */
  timeoutMs?: number;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  // nodemailer waits 2 minutes to connect and 10 for a silent server by default; sign-up awaits the
  // verification mail, so a mail server that stopped answering would hold the person's request that long.
  const timeout = options.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
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
