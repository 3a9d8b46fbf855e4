// The dev mailbox is identity's (it holds the mailer); the gateway forwards /api/dev/mailbox and
// /dev/mailbox to identity's HTTP side, as it does /realms, and only for callers on this machine (403
// otherwise): whoever reads it can take over any account, and only the gateway sees the real TCP peer.
import { HttpError, type Logger } from '@omni/platform';
import type { Express, RequestHandler } from 'express';
import { fromThisMachine } from '../local-caller';
import { forwardTo } from '../proxy';

const onlyThisMachine: RequestHandler = (req, _res, next) => {
  if (fromThisMachine(req)) return next();
  next(
    new HttpError(
      403,
      'The dev mailbox can only be read on the machine running Omni (from localhost).',
      'forbidden',
    ),
  );
};

export function forwardMailbox(http: Express, identity: () => string, logger: Logger): void {
  const forward = forwardTo(identity, logger, 'The dev mailbox');
  for (const path of ['/api/dev/mailbox', '/dev/mailbox']) http.use(path, onlyThisMachine, forward);
}
