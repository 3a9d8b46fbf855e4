// Sends the queued mails about releases and payments (store/notifications.ts), after the transaction that
// queued them committed: woken by each event and every few seconds, so a mail queued just before a crash
// still goes after the restart. Each mail goes to the account's current address and only if the person
// has not turned that kind off on /account; an account deleted meanwhile gets nothing.
import type { Logger } from '@omni/platform';
import { noticeMail } from '../domain/notification-mails';
import { isSplitNotice, type Notice } from '../domain/notifications';
import { splitInvitationMail, splitLapsedMail } from '../domain/split-mails';
import type { IdentityProvider } from '../providers/identity/port';
import type { Mailer, MailMessage } from '../providers/mail/port';
import type { NotificationDoc, Notifications } from '../store/notifications';
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

  /** The name a split invitation is signed with: the owner's display name, else their address. */
  async function ownerNameOf(ownerId: string, fallback: string) {
    const profile = await profiles.get(ownerId);
    if (profile?.displayName) return profile.displayName;
    const owner = await provider.getUser(ownerId);
    return owner?.name || owner?.email || fallback || 'An Omni artist';
  }

  /** The mail for a notice, or why none goes. A split invitation goes to its address, account or not. */
  async function mailOf(doc: NotificationDoc): Promise<MailMessage | { skip: string }> {
    const notice: Notice = doc.notice;
    if (isSplitNotice(notice) && notice.kind !== 'split_lapsed') {
      if (!doc.to || !notice.link) return { skip: 'no address or link' };
      return splitInvitationMail(doc.to, notice, await ownerNameOf(notice.ownerId, notice.ownerEmail));
    }
    const user = await provider.getUser(doc.userId);
    if (!user) return { skip: 'no account' };
    if (isSplitNotice(notice)) return splitLapsedMail(user.email, notice, deps.publicUrl);
    const settings = mailSettingsOf(await profiles.get(doc.userId));
    if (doc.topic !== 'splits' && !settings[doc.topic]) return { skip: 'turned off' };
    return noticeMail(user.email, notice, deps.publicUrl);
  }

  async function sendOne(id: string, doc: NotificationDoc) {
    if (!(await notifications.claim(id))) return;
    try {
      const message = await mailOf(doc);
      if ('skip' in message)
        return await notifications.settle(id, 'skipped', message.skip, undefined, doc.notice);
      await mailer.send(message);
      await notifications.settle(id, 'sent', undefined, undefined, doc.notice);
    } catch (err) {
      const attempts = doc.attempts + 1;
      const name = (err as Error).name || 'Error';
      // The error's name only: a mail transport's message may quote the mail (and its link).
      logger.warn({ err: name, notification: id, attempts }, 'could not send a notification mail');
      await notifications.settle(
        id,
        attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        name,
        attempts,
        doc.notice,
      );
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
