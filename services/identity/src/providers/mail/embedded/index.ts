// The dev mailbox: every mail is a JSON file under DATA_DIR/mailbox, newest first by file name. On one
// machine nothing is delivered anywhere; a newcomer opens /dev/mailbox and clicks the link. Files rather
// than memory so the mailbox survives restarts and several processes sharing DATA_DIR see the same mails.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@omni/platform';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@omni/platform';
import { linksIn, type Mailer, type MailMessage, type StoredMail } from '../port';

export interface EmbeddedMailerOptions {
  dataDir: string;
  logger?: Logger;
  /** Oldest mails beyond this count are deleted (default 500): a dev inbox, not an archive. */
  keep?: number;
}

const FILE = /^(\d{15})-([0-9a-f-]{36})\.json$/;

export function createEmbeddedMailer(options: EmbeddedMailerOptions): Mailer {
  const dir = options.dataDir;
  const keep = options.keep ?? 500;
  // File names order the mailbox, so each mail's stamp is later than the one before it even when two
  // are sent in the same millisecond (a sign-up's verification and a resend, say): with equal stamps the
  // random id behind them decided, and "newest first" could show the older link first.
  let lastStamp = 0;
  const nextStamp = () => {
    lastStamp = Math.max(Date.now(), lastStamp + 1);
    return lastStamp;
  };

  const names = async () => {
    const all = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    return all
      .filter((n) => FILE.test(n))
      .sort()
      .reverse();
  };

  const load = async (name: string): Promise<StoredMail | null> => {
    try {
      return JSON.parse(await readFile(join(dir, name), 'utf8')) as StoredMail;
    } catch {
      return null; // deleted by pruning between listing and reading
    }
  };

  const prune = async () => {
    const extra = (await names()).slice(keep);
    await Promise.all(extra.map((n) => rm(join(dir, n), { force: true })));
  };

  return {
    kind: 'embedded',
    async send(message: MailMessage) {
      const mail: StoredMail = {
        id: randomUUID(),
        to: message.to.trim().toLowerCase(),
        subject: message.subject,
        text: message.text,
        html: message.html,
        links: linksIn(message.text),
        sentAt: new Date().toISOString(),
      };
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const name = `${nextStamp().toString().padStart(15, '0')}-${mail.id}.json`;
      // Written whole then renamed, so a reader never sees half a mail.
      const tmp = join(dir, `.${name}.tmp`);
      await writeFile(tmp, JSON.stringify(mail), { mode: PRIVATE_FILE_MODE });
      await rename(tmp, join(dir, name));
      // The recipient is fine to log; the subject and body are not (they may carry a link).
      options.logger?.info({ to: mail.to, id: mail.id }, 'mail stored in the dev mailbox');
      await prune();
    },
    mailbox: {
      async list({ to, limit = 100 } = {}) {
        const want = to?.trim().toLowerCase();
        const out: StoredMail[] = [];
        for (const name of await names()) {
          if (out.length >= limit) break;
          const mail = await load(name);
          if (mail && (!want || mail.to === want)) out.push(mail);
        }
        return out;
      },
      async get(id) {
        const name = (await names()).find((n) => FILE.exec(n)?.[2] === id);
        return name ? load(name) : null;
      },
    },
    async ready() {
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    },
    async healthy() {
      return true;
    },
    async close() {},
  };
}
