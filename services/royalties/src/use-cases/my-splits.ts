// GET /api/me/splits: the /app/splits overview, built in one answer so the page makes one call.
// - owned: each of the caller's releases (catalog's list, newest first, up to 200) with the release
//   default's shares in force this month, its pending invitations and its lapsed ones with the owner's
//   choices (the same three getSplits offers in its notices, acted on through actOnInvitation);
// - invited: the invitations others sent the caller (bound to their account, or at their address).
// Only the caller's own: releases are listed by owner id, invitations by account or address.

import type { PromiseClient } from '@omni/platform';
import type { catalog } from '@omni/proto';
import type { MySplits } from '@omni/proto/api';
import { formatAmount } from '../domain/money';
import { formatPercent, monthOf, normalizeEmail, tableFor } from '../domain/splits/shares';
import type { InvitationDoc, VersionDoc } from '../store/splits';
import { type Caller, lapseDue, type SplitDeps } from './splits';

/** catalog's limit on one list; an owner with more releases sees their 200 newest here. */
const MAX_RELEASES = 200;
const CHOICES: Array<'resend' | 'reassign' | 'take_back'> = ['resend', 'reassign', 'take_back'];

export type MySplitsDeps = SplitDeps & {
  releases: Pick<PromiseClient<typeof catalog.CatalogServiceService>, 'listReleases'>;
};

const invParty = (id: string) => `inv:${id}`;

/** A pending invitation whose link ran out reads as lapsed even before the sweep marks it. */
const statusOf = (inv: InvitationDoc, now: string) =>
  inv.status === 'pending' && inv.expiresAt < now ? 'lapsed' : inv.status;

function byRelease<T extends { releaseId: string }>(rows: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const r of rows) map.set(r.releaseId, [...(map.get(r.releaseId) ?? []), r]);
  return map;
}

export async function mySplits(deps: MySplitsDeps, caller: Caller): Promise<MySplits> {
  await lapseDue(deps);
  const nowDate = deps.now ? deps.now() : new Date();
  const now = nowDate.toISOString();
  const month = monthOf(nowDate);

  const { releases } = await deps.releases.listReleases({ ownerId: caller.userId, limit: MAX_RELEASES });
  const sent = await deps.splits.invitationsOwnedBy(caller.userId);
  const received = (await deps.splits.invitationsFor(caller.userId, normalizeEmail(caller.email))).filter(
    (i) => i.ownerId !== caller.userId,
  );
  const ids = [...new Set([...releases.map((r) => r.id), ...received.map((i) => i.releaseId)])];
  const versions = byRelease<VersionDoc>(ids.length ? await deps.splits.versionsOfReleases(ids) : []);
  const sentBy = byRelease(sent);
  const lapsedSent = sent.filter((i) => statusOf(i, now) === 'lapsed');
  const heldRows = lapsedSent.length
    ? await deps.payees.monthsOfParties(lapsedSent.map((i) => invParty(i._id)))
    : [];
  const heldOf = (inv: InvitationDoc) =>
    formatAmount(
      heldRows
        .filter((r) => r.party === invParty(inv._id))
        .reduce((t, r) => t + BigInt(r.split) + BigInt(r.recoup), 0n),
    );
  const defaultOf = (releaseId: string) => tableFor(versions.get(releaseId) ?? [], '', month) ?? [];

  const owned = releases.map((r) => {
    const invitations = sentBy.get(r.id) ?? [];
    const byId = new Map(invitations.map((i) => [i._id, i]));
    return {
      releaseId: r.id,
      title: r.title,
      shares: defaultOf(r.id).map((e) => {
        const inv = e.party.startsWith('inv:') ? byId.get(e.party.slice(4)) : undefined;
        return {
          email: inv?.email ?? e.email,
          percent: formatPercent(e.units),
          status: inv ? statusOf(inv, now) : ('owner' as const),
        };
      }),
      pending: invitations
        .filter((i) => statusOf(i, now) === 'pending')
        .map((i) => ({ invitationId: i._id, email: i.email, expiresAt: i.expiresAt })),
      lapsed: invitations
        .filter((i) => statusOf(i, now) === 'lapsed')
        .map((i) => ({
          invitationId: i._id,
          email: i.email,
          expiresAt: i.expiresAt,
          held: heldOf(i),
          choices: CHOICES,
        })),
    };
  });

  const invited = received
    // A share the owner gave to someone else is no longer the caller's.
    .filter((i) => i.status !== 'reassigned' || i.boundTo === caller.userId)
    .map((i) => {
      const mine = defaultOf(i.releaseId).find((e) => e.party === invParty(i._id));
      return {
        invitationId: i._id,
        releaseId: i.releaseId,
        releaseTitle: i.releaseTitle,
        status: statusOf(i, now),
        expiresAt: i.expiresAt,
        percent: mine ? formatPercent(mine.units) : '',
      };
    });

  return { month, owned, invited };
}
