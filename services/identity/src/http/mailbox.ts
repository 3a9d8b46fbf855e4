// The dev mailbox, in embedded mail mode only: /dev/mailbox lists what Omni "sent" (newest first, links
// clickable) so a newcomer can confirm an account without a mail server; /api/dev/mailbox is the same as
// JSON for tests. With a real mail transport both answer 404: sign-in links must never be readable here.
// Served from identity's own mailer; the public way in is the gateway, which forwards only callers on this
// machine (gateway/src/http/local-caller.ts sees the real TCP peer): whoever reads it can take over any
// account. Production refuses to start with the embedded mailbox at all (config: MAIL must be smtp).
import { HttpError, onlyThisMachine } from '@omni/platform';
import { AUTH_MESSAGES } from '@omni/proto/api';
import type { Express } from 'express';
import { z } from 'zod';
import type { DevMailbox, StoredMail } from '../providers/mail/port';

const query = z.object({
  to: z.string().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(mails: StoredMail[], to: string | undefined): string {
  const items = mails
    .map(
      (m) => `<article>
  <header><strong>${escapeHtml(m.subject)}</strong><br><small>to ${escapeHtml(m.to)} · ${escapeHtml(new Date(m.sentAt).toLocaleString('en-GB'))}</small></header>
  <p>${escapeHtml(m.text)
    .replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')
    .replace(/\n/g, '<br>')}</p>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<title>Dev mailbox · Omni</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#111}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}a{color:#6d28d9;word-break:break-all}
small{color:#666}</style></head>
<body><h1>Dev mailbox</h1>
<p>Mails Omni sent in embedded mode${to ? ` to ${escapeHtml(to)}` : ''}, newest first. Nothing leaves this machine.
<a href="/dev/mailbox">All</a></p>
<form method="get"><input name="to" type="email" placeholder="Filter by recipient" value="${escapeHtml(to ?? '')}"> <button>Filter</button></form>
${items || '<p>No mail yet.</p>'}
</body></html>`;
}

const localOnly = onlyThisMachine(AUTH_MESSAGES.mailboxLocalOnly);

/** Mounts /api/dev/mailbox and /dev/mailbox; without a dev mailbox (SMTP) both answer 404. */
export function mountMailbox(http: Express, box: DevMailbox | undefined): void {
  const read = async (q: unknown) => {
    const parsed = query.safeParse(q);
    if (!parsed.success) throw new HttpError(400, 'Invalid mailbox query.', 'invalid_request');
    if (!box) throw new HttpError(404, 'The dev mailbox exists only in embedded mail mode.', 'not_found');
    return {
      to: parsed.data.to,
      mails: await box.list({ to: parsed.data.to, limit: parsed.data.limit ?? 100 }),
    };
  };
  // The gateway already refuses other machines; identity's own port refuses them too, for when identity
  // runs alone and binds to every interface (the same rule as the gateway's, from the kit).
  http.use(['/api/dev/mailbox', '/dev/mailbox'], localOnly);
  http.get('/api/dev/mailbox', async (req, res) => {
    const { mails } = await read(req.query);
    res.set('Cache-Control', 'no-store').json({ messages: mails });
  });
  http.get('/dev/mailbox', async (req, res) => {
    const { to, mails } = await read(req.query);
    res.set('Cache-Control', 'no-store').type('html').send(page(mails, to));
  });
}
