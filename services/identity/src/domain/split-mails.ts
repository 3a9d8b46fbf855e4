// The words of the split invitation mails (royalties' `split.invitation`, issue 26): the invitee's, with the
// link to their share, and the owner's when an invitation lapsed unanswered — what happened, that nothing
// moved, and the three choices (send again, give to someone else, take it back). Plain words, one link each.
import type { MailMessage } from '../providers/mail/port';
import { mail } from './mails';
import type { SplitNotice } from './notifications';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** "$12.34": money is a USD decimal string; shown to the cent (rounded only here, where it is shown). */
export const usd = (amount: string) => {
  const n = Number(amount);
  return `$${(Number.isFinite(n) ? n : 0).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
};

/** "40% of every track of Split Road", or each table's share when they differ. */
export function shareWords(notice: Pick<SplitNotice, 'shares' | 'releaseTitle'>): string {
  const { shares, releaseTitle } = notice;
  if (shares.length === 0) return `a share of "${releaseTitle}"`;
  const percents = new Set(shares.map((s) => s.percent));
  const whole = shares.some((s) => s.target === null);
  if (percents.size === 1) {
    const [p] = percents;
    if (whole) return `${p}% of "${releaseTitle}"`;
    const titles = shares.map((s) => `"${s.title}"`);
    return `${p}% of ${titles.length === 1 ? titles[0] : `${titles.slice(0, -1).join(', ')} and ${titles.at(-1)}`} on "${releaseTitle}"`;
  }
  const parts = shares.filter((s) => s.target !== null || shares.length === 1);
  const shown = parts.slice(0, 6).map((s) => `${s.percent}% of "${s.title}"`);
  const more = parts.length > 6 ? ` and ${parts.length - 6} more tracks` : '';
  return `${shown.join(', ')}${more} on "${releaseTitle}"`;
}

/** To the invitee: who invites, to what, what it holds, until when the link works. */
export function splitInvitationMail(
  to: string,
  notice: Extract<SplitNotice, { kind: 'split_invited' | 'split_resent' }>,
  ownerName: string,
): MailMessage {
  const held =
    Number(notice.held) > 0 ? ` ${usd(notice.held)} has come in for it so far and is held for you.` : '';
  const again =
    notice.kind === 'split_resent' ? ' This is a new link: the one sent before no longer works.' : '';
  return mail(
    to,
    `${ownerName} invites you to a share of "${notice.releaseTitle}"`,
    `${ownerName} has given you ${shareWords(notice)} on Omni: that part of its royalties is paid to you once you accept.${held}${again}`,
    'See and accept your share',
    notice.link ?? '',
    `The link works until ${day(notice.expiresAt)}. Accept with any Omni account, new or existing, even one with another email address. If you did not expect this, ignore this email: your share stays held and ${ownerName} is told if you do not answer.`,
  );
}

/** To the owner: the invitation lapsed, nothing moved, and what they can choose. */
export function splitLapsedMail(
  to: string,
  notice: Extract<SplitNotice, { kind: 'split_lapsed' }>,
  publicUrl: string,
): MailMessage {
  const page = new URL(`/release/${encodeURIComponent(notice.releaseId)}`, publicUrl);
  page.searchParams.set('tab', 'splits');
  return mail(
    to,
    `Your invitation to ${notice.email} lapsed`,
    `${notice.email} did not accept ${shareWords(notice)} by ${day(notice.expiresAt)}, and the link you sent no longer works. Nothing has moved: the share is still theirs and what it earns is held (${usd(notice.held)} so far). Choose what happens on the release's Splits tab: send the invitation again (a new link), give the share to someone else (the held money goes with it), or take it back yourself.`,
    'Choose what happens to the share',
    page.toString(),
    'Until you choose, the share keeps being held; nothing is given back or paid out by itself.',
  );
}
