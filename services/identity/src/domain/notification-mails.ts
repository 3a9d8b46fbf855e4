// The words of the mails about a release or a payment: each names what happened, links to the page
// concerned (built on PUBLIC_URL) and says where to turn such mails off.
import { PLATFORMS } from '@omni/proto/api';
import type { MailMessage } from '../providers/mail/port';
import { mail } from './mails';
import type { AccountNotice } from './notifications';

const storeNames = new Map(PLATFORMS.map((p) => [p.key, p.name]));
const storeName = (key: string) => storeNames.get(key) ?? key;

/** A reason from a reviewer or a store, kept to a readable length. */
const quote = (reason: string) => {
  const clean = reason.replace(/\s+/g, ' ').trim();
  return clean.length > 500 ? `${clean.slice(0, 497)}…` : clean;
};

export function noticeMail(to: string, notice: AccountNotice, publicUrl: string): MailMessage {
  const url = (path: string) => new URL(path, publicUrl).toString();
  const settings = `You get this mail because it is turned on in your account settings: ${url('/account')}`;
  if (notice.kind === 'payment_failed') {
    const product = notice.product === 'pro' ? 'Pro' : 'Missing Money Finder';
    const retry = notice.nextAttemptAt
      ? ` We will try again on ${new Date(notice.nextAttemptAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}; until then your subscription stays active.`
      : ' Your subscription stays active while the payment is retried.';
    return mail(
      to,
      `Your ${product} payment failed`,
      `We could not take the payment for your ${product} subscription.${retry} Update your card to keep it.`,
      'Update your payment method',
      url(notice.product === 'pro' ? '/app' : '/missing-money-finder'),
      settings,
    );
  }
  const page = url(`/release/${encodeURIComponent(notice.releaseId)}`);
  switch (notice.kind) {
    case 'release_approved':
      return mail(
        to,
        'Your release was approved',
        'Good news: your release passed review and is on its way to the stores you chose.',
        'Follow its delivery',
        page,
        settings,
      );
    case 'release_rejected':
      return mail(
        to,
        'Your release needs changes',
        `Your release was not approved. The reviewer wrote: "${quote(notice.reason)}" Fix it and send it again from its page.`,
        'Fix and resubmit',
        page,
        settings,
      );
    case 'store_refused':
      return mail(
        to,
        `${storeName(notice.store)} refused your release`,
        `${storeName(notice.store)} did not accept your release. It said: "${quote(notice.reason)}" The other stores are not affected.`,
        'See what to do',
        page,
        settings,
      );
    case 'release_live':
      return mail(
        to,
        'Your release is live',
        notice.storeCount && notice.storeCount > 1
          ? `Your release is live on ${storeName(notice.store)}, the first of its ${notice.storeCount} stores. The others follow as they accept it; its page shows each store as it goes live (we send no mail per store).`
          : `Your release is live on ${storeName(notice.store)}. Its page shows every store as it goes live (we send no mail per store).`,
        'See where it is live',
        page,
        settings,
      );
    case 'release_taken_down':
      return mail(
        to,
        'Your release was taken down',
        'Your release has been taken down from every store it was on.',
        'See the release',
        page,
        settings,
      );
  }
}
