// Sends the queued mails about releases and payments (store/notifications.ts), after the transaction that
// queued them committed: woken by each event and every few seconds, so a mail queued just before a crash
// still goes after the restart. Each mail goes to the account's current address and only if the person
// has not turned that kind off on /account; an account deleted meanwhile gets nothing.
import type { Logger } from '@omni/platform';
import { noticeMail } from '../domain/notification-mails';
import type { IdentityProvider } from '../providers/identity/port';
import type { Mailer } from '../providers/mail/port';
import type { Notifications } from '../store/notifications';
import { mailSettingsOf, type Profiles } from '../store/profiles';

export interface NotifierDeps {
  notifications: Notifications;
  provider: IdentityProvider;
  profiles: Profiles;
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
  /** How often the queue is read without a wake-up (default 3 s). */
  pollMs?: number;
}

const MAX_ATTEMPTS = 5;
const BATCH = 50;
/** How long a settled mail's record is kept (support can say what was sent), and how often to prune. */
const KEEP_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export function createNotifier(deps: NotifierDeps) {
  const { notifications, provider, profiles, mailer, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let pruner: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  async function sendOne(id: string, doc: Awaited<ReturnType<Notifications['pending']>>[number]) {
    if (!(await notifications.claim(id))) return;
    try {
      const user = await provider.getUser(doc.userId);
      if (!user) return await notifications.settle(id, 'skipped', 'no account');
      const settings = mailSettingsOf(await profiles.get(doc.userId));
      if (!settings[doc.topic]) return await notifications.settle(id, 'skipped', 'turned off');
      await mailer.send(noticeMail(user.email, doc.notice, deps.publicUrl));
      await notifications.settle(id, 'sent');
    } catch (err) {
      const attempts = doc.attempts + 1;
      const name = (err as Error).name || 'Error';
      // The error's name only: a mail transport's message may quote the mail.
      logger.warn({ err: name, notification: id, attempts }, 'could not send a notification mail');
      await notifications.settle(id, attempts >= MAX_ATTEMPTS ? 'failed' : 'pending', name, attempts);
    }
  }

  async function drain() {
    do {
      again = false;
      for (const doc of await notifications.pending(BATCH)) {
        if (stopped) return;
        await sendOne(doc._id, doc);
      }
    } while (again && !stopped);
  }

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err: unknown) => logger.warn({ err: (err as Error).name }, 'notification sender failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    /** After an event queued something (its transaction commits just after: the next tick sees it). */
    wake() {
      setTimeout(run, 20).unref();
    },
    async start() {
      stopped = false;
      await notifications.releaseStuck(60_000);
      const prune = () =>
        notifications
          .prune(KEEP_MS)
          .catch((err: unknown) => logger.warn({ err: (err as Error).name }, 'could not prune sent mails'));
      await prune();
      timer = setInterval(run, deps.pollMs ?? 3000);
      timer.unref();
      pruner = setInterval(prune, PRUNE_EVERY_MS);
      pruner.unref();
      run();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (pruner) clearInterval(pruner);
      await running;
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
