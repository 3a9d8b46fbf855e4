// The mail port: how identity sends email. SMTP (nodemailer) in production; on one machine a dev
// mailbox kept on disk under DATA_DIR, which identity serves at /dev/mailbox (through the gateway) in embedded mode only.
// Mails carry sign-in links: adapters never log a body, a link or a subject line with a token in it.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface StoredMail extends MailMessage {
  id: string;
  /** Every http(s) link found in the text body, in order (tests and the mailbox page use them). */
  links: string[];
  sentAt: string;
}

/** The embedded adapter's inbox. Absent on real mail transports. */
export interface DevMailbox {
  /** Newest first; `to` filters by recipient (case-insensitive). */
  list(options?: { to?: string; limit?: number }): Promise<StoredMail[]>;
  get(id: string): Promise<StoredMail | null>;
}

export interface Mailer {
  /** 'embedded' or 'smtp'. */
  readonly kind: string;
  send(message: MailMessage): Promise<void>;
  /** Present only on the embedded adapter. */
  readonly mailbox?: DevMailbox;
  ready(): Promise<void>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export class MailError extends Error {
  override name = 'MailError';
}

/** Links in a text body: what a person would click. */
export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);
}
