// The dev mailbox is identity's (it holds the mailer); the gateway forwards /api/dev/mailbox and
// /dev/mailbox to identity's HTTP side, as it does /realms, and only for callers on this machine (403
// otherwise): whoever reads it can take over any account, and only the gateway sees the real TCP peer
// (the platform kit's onlyThisMachine: the same rule guards the checkout sandbox).
import { type Logger, onlyThisMachine } from '@omni/platform';
import { AUTH_MESSAGES } from '@omni/proto/api';
import type { Express } from 'express';
import { forwardTo } from '../proxy';

const localOnly = onlyThisMachine(AUTH_MESSAGES.mailboxLocalOnly);

export function forwardMailbox(http: Express, identity: () => string, logger: Logger): void {
  const forward = forwardTo(identity, logger, 'The dev mailbox');
  for (const path of ['/api/dev/mailbox', '/dev/mailbox']) http.use(path, localOnly, forward);
}
