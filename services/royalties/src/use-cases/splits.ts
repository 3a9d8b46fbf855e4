// Splits and collaborators: a release's share tables, the invitations that carry collaborators' shares,
// recoupable expenses, and what each person sees of them. Who may do what:
// - the release's owner, or an admin: set shares, see everything, act on invitations, enter expenses;
// - a collaborator (an invitation bound to their account, or pending at their address): their own share,
//   what it has earned or holds, and the release's recoup ledger — never another payee's share;
// - anyone else: the release does not exist (404, as catalog answers).
// Catalog owns releases: it is asked for the owner, the title and the tracks.
import { createHash, randomBytes } from 'node:crypto';
import { fail, invalidArgument, type PromiseClient, type TransactionScope } from '@omni/platform';
import type { catalog, events } from '@omni/proto';
import type {
  ExpenseBody,
  InvitationActionBody,
  Invitation as InvitationJson,
  InvitationView,
  MyEarnings,
  ReleaseSplits,
  SetSplitsBody,
} from '@omni/proto/api';
import { formatAmount, MoneyError, parseAmount } from '../domain/money';
import {
  effectiveMonth,
  formatPercent,
  monthOf,
  normalizeEmail,
  planShares,
  SplitRefused,
  type TableEntry,
  tableFor,
  WHOLE,
} from '../domain/splits/shares';
import type { PayeeMonthDoc, PayeesRepository } from '../store/payees';
import type { InvitationDoc, SplitsRepository, VersionDoc } from '../store/splits';

/** How long an invitation link works. The owner is told when it lapses and chooses what happens. */
export const INVITE_DAYS = 30;

export interface Caller {
  userId: string;
  email: string;
  isAdmin: boolean;
}

/** What a `split.invitation` event carries (proto/events): identity mails it. */
export type SplitInvitationNotice = events.EventInput<'split.invitation'>;

/**
 * Tells people about invitations: a `split.invitation` event written in the transaction that made the
 * change (royalties' outbox), which identity, owning mail, turns into the invitee's mail with the link or
 * the owner's lapse mail. Never logged: the event carries the link.
 */
export interface SplitNotices {
  add(scope: TransactionScope, notice: SplitInvitationNotice): Promise<void>;
  /** After the commit: publish now rather than at the outbox's next sweep. */
  flush(): void;
}

export interface SplitDeps {
  splits: SplitsRepository;
  payees: PayeesRepository;
  catalog: Pick<PromiseClient<typeof catalog.CatalogServiceService>, 'getRelease'>;
  notices: SplitNotices;
  publicUrl: string;
  now?: () => Date;
}

const clock = (deps: SplitDeps) => (deps.now ? deps.now() : new Date());
const ownerParty = (ownerId: string) => `user:${ownerId}`;
const invParty = (id: string) => `inv:${id}`;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const NO_SUCH_RELEASE = 'No such release.';

function refused(err: unknown): never {
  if (err instanceof SplitRefused || err instanceof MoneyError) throw invalidArgument(err.message);
  throw err;
}

interface ReleaseFacts {
  id: string;
  ownerId: string;
  title: string;
  tracks: Array<{ id: string; title: string }>;
}

async function releaseOf(deps: SplitDeps, releaseId: string): Promise<ReleaseFacts> {
  if (!releaseId) throw fail('release_not_found', NO_SUCH_RELEASE);
  const { release } = await deps.catalog.getRelease({ releaseId, callerId: '', callerIsAdmin: true });
  if (!release) throw fail('release_not_found', NO_SUCH_RELEASE);
  return {
    id: release.id,
    ownerId: release.ownerId,
    title: release.title,
    tracks: release.tracks.map((t) => ({ id: t.id, title: t.title })),
  };
}

const manages = (caller: Caller, release: ReleaseFacts) =>
  caller.isAdmin || caller.userId === release.ownerId;

/** A new link secret: only its hash is kept, the secret goes out once (mail, and the owner's answer). */
function newToken(now: Date) {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + INVITE_DAYS * 86_400_000).toISOString(),
  };
}

const linkOf = (deps: SplitDeps, token: string) => {
  const url = new URL('/splits/invitation', deps.publicUrl);
  url.searchParams.set('token', token);
  return url.toString();
};

/**
 * An invitation's share of each table, as its mail tells it: per target, the newest version naming it (in
 * force now, or from a later month the owner chose).
 */
async function sharesOfInvitation(
  deps: SplitDeps,
  inv: InvitationDoc,
  titles: ReadonlyMap<string, string>,
): Promise<SplitInvitationNotice['shares']> {
  const versions = await deps.splits.versionsOf(inv.releaseId);
  const party = invParty(inv._id);
  const latest = new Map<string, VersionDoc>();
  for (const v of versions) if ((latest.get(v.target)?.seq ?? -1) < v.seq) latest.set(v.target, v);
  return [...latest.values()].flatMap((v) => {
    const mine = v.entries.find((e) => e.party === party);
    if (!mine) return [];
    const title = v.target ? (titles.get(v.target) ?? 'a track') : `${inv.releaseTitle} (release default)`;
    return [{ target: v.target || null, title, percent: formatPercent(mine.units) }];
  });
}

const heldFor = async (deps: SplitDeps, inv: InvitationDoc) =>
  formatAmount(sumOf(await deps.payees.monthsOfParties([invParty(inv._id)]), invParty(inv._id)));

const titlesOf = (release: ReleaseFacts | null) =>
  new Map((release?.tracks ?? []).map((t) => [t.id, t.title] as const));

/**
 * Marks pending invitations whose link ran out as lapsed and tells their owners, once each: the change and
 * the owner's mail (a `split.invitation` event, kind lapsed) are written together. Their shares stay where
 * they are: the money keeps being held for the invitee until the owner chooses.
 */
export async function lapseDue(deps: SplitDeps): Promise<number> {
  let n = 0;
  const releases = new Map<string, ReleaseFacts | null>();
  for (const inv of await deps.splits.pendingExpired(clock(deps))) {
    const at = clock(deps).toISOString();
    if (!releases.has(inv.releaseId))
      releases.set(inv.releaseId, await releaseOf(deps, inv.releaseId).catch(() => null));
    const release = releases.get(inv.releaseId) ?? null;
    const shares = await sharesOfInvitation(deps, inv, titlesOf(release));
    const held = await heldFor(deps, inv);
    const ownerEmail =
      (await deps.splits.versionsOf(inv.releaseId)).flatMap((v) => v.entries).find((e) => e.role === 'owner')
        ?.email ?? '';
    const modified = await deps.splits.transaction(async (scope) => {
      const res = await deps.splits.updateInvitation(
        inv._id,
        { status: 'lapsed', lapseNoticeAt: at },
        'the invitation lapsed; the owner was told',
        'omni',
        { where: { status: 'pending' }, scope },
      );
      if (res.modified === 0) return 0;
      await deps.notices.add(scope, {
        kind: 'lapsed',
        invitationId: inv._id,
        releaseId: inv.releaseId,
        releaseTitle: release?.title ?? inv.releaseTitle,
        ownerId: inv.ownerId,
        ownerEmail,
        email: inv.email,
        shares,
        held,
        expiresAt: inv.expiresAt,
        at,
      });
      return 1;
    });
    n += modified;
  }
  if (n > 0) deps.notices.flush();
  return n;
}

/** PUT /api/releases/:id/splits */
export async function setSplits(deps: SplitDeps, caller: Caller, releaseId: string, body: SetSplitsBody) {
  const release = await releaseOf(deps, releaseId);
  if (!manages(caller, release)) throw fail('release_not_found', NO_SUCH_RELEASE);
  const now = clock(deps);
  const versions = await deps.splits.versionsOf(release.id);
  // The owner's address: the caller's when the owner sets them; an admin keeps the one last recorded.
  const ownerEmail =
    caller.userId === release.ownerId
      ? normalizeEmail(caller.email)
      : (versions.flatMap((v) => v.entries).find((e) => e.role === 'owner')?.email ?? '');
  let plan: ReturnType<typeof planShares>;
  let from: string;
  try {
    plan = planShares(body.shares, ownerEmail);
    from = effectiveMonth(body.effectiveFrom, now);
  } catch (err) {
    refused(err);
  }
  const trackIds = new Set(release.tracks.map((t) => t.id));
  const unknown = (body.tracks ?? []).filter((t) => !trackIds.has(t));
  if (unknown.length)
    throw invalidArgument(
      `This release has no track ${unknown[0]}; choose among its ${trackIds.size} tracks.`,
    );
  // No tracks named: the release's default, copied to every track (each keeps its own history).
  const targets = body.tracks?.length ? [...new Set(body.tracks)] : ['', ...trackIds];

  const existing = await deps.splits.invitationsOf(release.id);
  const links: Array<{ email: string; url: string }> = [];
  const trackTitle = titlesOf(release);
  await deps.splits.transaction(async (scope) => {
    const entries: TableEntry[] = [];
    if (plan.ownerUnits > 0)
      entries.push({
        party: ownerParty(release.ownerId),
        email: ownerEmail,
        units: plan.ownerUnits,
        role: 'owner',
      });
    for (const c of plan.collaborators) {
      let inv = existing.find((i) => i.email === c.email && i.status !== 'reassigned');
      if (!inv) {
        const t = newToken(now);
        inv = await deps.splits.createInvitation(
          scope,
          {
            releaseId: release.id,
            releaseTitle: release.title,
            ownerId: release.ownerId,
            email: c.email,
            tokenHash: t.tokenHash,
            expiresAt: t.expiresAt,
          },
          caller.userId,
        );
        existing.push(inv);
        const link = linkOf(deps, t.token);
        links.push({ email: c.email, url: link });
        // The invitee's mail, written with the invitation (sent by identity once this commits).
        await deps.notices.add(scope, {
          kind: 'invited',
          invitationId: inv._id,
          releaseId: release.id,
          releaseTitle: release.title,
          ownerId: release.ownerId,
          ownerEmail,
          email: c.email,
          shares: targets.map((target) => ({
            target: target || null,
            title: target ? (trackTitle.get(target) ?? target) : `${release.title} (release default)`,
            percent: formatPercent(c.units),
          })),
          held: '0',
          expiresAt: t.expiresAt,
          link,
          at: now.toISOString(),
        });
      }
      entries.push({ party: invParty(inv._id), email: c.email, units: c.units, role: 'collaborator' });
    }
    return deps.splits.addVersions(
      scope,
      release.id,
      release.ownerId,
      caller.userId,
      from,
      targets.map((target) => ({ target, entries })),
    );
  });
  if (links.length) deps.notices.flush();
  const view = await getSplits(deps, caller, release.id, release);
  return { ...view, links };
}

function invitationJson(inv: InvitationDoc, held: bigint, earned: bigint, now: Date): InvitationJson {
  return {
    id: inv._id,
    email: inv.email,
    status: inv.status === 'pending' && inv.expiresAt < now.toISOString() ? 'lapsed' : inv.status,
    expiresAt: inv.expiresAt,
    held: formatAmount(held),
    paidToAccount: formatAmount(earned),
    history: inv.history,
  };
}

const sumOf = (rows: readonly PayeeMonthDoc[], party: string) =>
  rows.filter((r) => r.party === party).reduce((t, r) => t + BigInt(r.split) + BigInt(r.recoup), 0n);

/** GET /api/releases/:id/splits: everything for the owner or an admin; a collaborator's own share only. */
export async function getSplits(
  deps: SplitDeps,
  caller: Caller,
  releaseId: string,
  known?: ReleaseFacts,
): Promise<ReleaseSplits> {
  await lapseDue(deps);
  const release = known ?? (await releaseOf(deps, releaseId));
  const now = clock(deps);
  const invitations = await deps.splits.invitationsOf(release.id);
  const full = manages(caller, release);
  const email = normalizeEmail(caller.email);
  const mine = invitations.filter(
    (i) => i.boundTo === caller.userId || (!i.boundTo && email !== '' && i.email === email),
  );
  if (!full && mine.length === 0) throw fail('release_not_found', NO_SUCH_RELEASE);
  const visibleParties = new Set(full ? [] : mine.map((i) => invParty(i._id)));
  const visible = (party: string) => full || visibleParties.has(party);

  const versions = await deps.splits.versionsOf(release.id);
  const months = await deps.payees.monthsOfRelease(release.id);
  const current = monthOf(now);
  const trackTitle = new Map(release.tracks.map((t) => [t.id, t.title]));
  const invById = new Map(invitations.map((i) => [i._id, i]));
  const sharesOf = (entries: readonly TableEntry[]) =>
    entries
      .filter((e) => visible(e.party))
      .map((e) => {
        const inv = e.party.startsWith('inv:') ? invById.get(e.party.slice(4)) : undefined;
        return {
          email: inv?.email ?? e.email,
          percent: formatPercent(e.units),
          role: e.role,
          status: inv ? invitationJson(inv, 0n, 0n, now).status : ('owner' as const),
          invitationId: inv?._id ?? null,
        };
      });
  const targets = ['', ...release.tracks.map((t) => t.id)];
  const ownerDefault = [
    { party: ownerParty(release.ownerId), email: '', units: WHOLE, role: 'owner' as const },
  ];
  const tables = targets.map((target) => {
    const entries =
      tableFor(versions, target, current) ?? (target === '' ? null : tableFor(versions, '', current));
    return {
      target: target || null,
      title: target ? (trackTitle.get(target) ?? target) : `${release.title} (release default)`,
      shares: sharesOf(entries ?? ownerDefault),
      upcoming: versions
        .filter((v) => v.target === target && v.effectiveFrom > current)
        .map((v) => ({ effectiveFrom: v.effectiveFrom, shares: sharesOf(v.entries) })),
    };
  });
  const history = versions
    .filter((v) => full || v.entries.some((e) => visible(e.party)))
    .map((v: VersionDoc) => ({
      target: v.target || null,
      effectiveFrom: v.effectiveFrom,
      setAt: v.createdAt,
      setBy: v.createdBy === release.ownerId ? ('owner' as const) : ('admin' as const),
      shares: sharesOf(v.entries),
    }));
  const shown = full ? invitations : mine;
  const invitationRows = shown.map((inv) => {
    const amount = sumOf(months, invParty(inv._id));
    const bound = inv.status === 'accepted' || inv.status === 'reassigned';
    return invitationJson(inv, bound ? 0n : amount, bound ? amount : 0n, now);
  });
  const notices = full
    ? invitationRows
        .filter((i) => i.status === 'lapsed')
        .map((i) => ({
          invitationId: i.id,
          email: i.email,
          message: `The invitation to ${i.email} lapsed on ${i.expiresAt.slice(0, 10)} without an answer. Their share is still held (${i.held} USD so far): send it again, give it to someone else, or take it back yourself.`,
          choices: ['resend', 'reassign', 'take_back'] as Array<'resend' | 'reassign' | 'take_back'>,
        }))
    : [];
  const expenses = await deps.splits.expensesOf(release.id);
  const entries = await deps.payees.recoupsOf(release.id);
  const partyEmail = (party: string, fallback: string) =>
    party.startsWith('inv:') ? (invById.get(party.slice(4))?.email ?? fallback) : fallback;
  return {
    releaseId: release.id,
    title: release.title,
    role: caller.userId === release.ownerId ? 'owner' : full ? 'admin' : 'collaborator',
    currency: 'USD',
    month: current,
    tables,
    history,
    invitations: invitationRows,
    notices,
    recoup: {
      expenses: expenses.map((e) => ({
        id: e._id,
        kind: e.kind,
        email: partyEmail(e.party, e.email),
        amount: formatAmount(BigInt(e.amount)),
        recouped: formatAmount(BigInt(e.recouped)),
        outstanding: formatAmount(BigInt(e.amount) - BigInt(e.recouped)),
        note: e.note,
        createdAt: e.createdAt,
      })),
      entries: entries.map((r) => ({
        expenseId: r.expenseId,
        email: partyEmail(r.party, expenses.find((e) => e._id === r.expenseId)?.email ?? ''),
        amount: formatAmount(BigInt(r.amount)),
        at: r.at,
      })),
    },
  };
}

/** POST /api/releases/:id/splits/invitations/:invitationId: the owner's choice (resend, reassign). */
export async function actOnInvitation(
  deps: SplitDeps,
  caller: Caller,
  releaseId: string,
  invitationId: string,
  body: InvitationActionBody,
) {
  const release = await releaseOf(deps, releaseId);
  if (!manages(caller, release)) throw fail('release_not_found', NO_SUCH_RELEASE);
  const inv = await deps.splits.invitation(invitationId);
  if (!inv || inv.releaseId !== release.id)
    throw fail('link_not_found', 'No such invitation on this release.');
  if (inv.status === 'accepted' || inv.status === 'reassigned')
    throw fail(
      'not_supported',
      `This share was already ${inv.status === 'accepted' ? 'accepted' : 'taken back'}; change the split to move it.`,
    );
  const now = clock(deps);
  let links: Array<{ email: string; url: string }> = [];
  if (body.action === 'take_back') {
    // The owner takes the share back: the invitation is bound to them, and what it holds is theirs by
    // their own choice (never by the calendar).
    await deps.splits.updateInvitation(
      inv._id,
      { status: 'reassigned', boundTo: release.ownerId },
      `taken back by the owner from ${inv.email}`,
      caller.userId,
      { unsetToken: true },
    );
  } else {
    // Sent again, or to someone else: a new link (the old one stops working), a new window; the share and
    // what it holds so far follow the invitation to whoever accepts it.
    const to = body.action === 'resend' ? inv.email : normalizeEmail(body.email);
    const t = newToken(now);
    const link = linkOf(deps, t.token);
    const shares = await sharesOfInvitation(deps, inv, titlesOf(release));
    const held = await heldFor(deps, inv);
    const ownerEmail =
      caller.userId === release.ownerId
        ? normalizeEmail(caller.email)
        : ((await deps.splits.versionsOf(release.id))
            .flatMap((v) => v.entries)
            .find((e) => e.role === 'owner')?.email ?? '');
    await deps.splits.transaction(async (scope) => {
      await deps.splits.updateInvitation(
        inv._id,
        { status: 'pending', email: to, tokenHash: t.tokenHash, expiresAt: t.expiresAt },
        body.action === 'resend' ? `sent again to ${to}` : `given to ${to} instead of ${inv.email}`,
        caller.userId,
        { scope },
      );
      // The mail with the new link, to the same address or the new one (the old link is dead).
      await deps.notices.add(scope, {
        kind: body.action === 'resend' ? 'resent' : 'invited',
        invitationId: inv._id,
        releaseId: release.id,
        releaseTitle: release.title,
        ownerId: release.ownerId,
        ownerEmail,
        email: to,
        shares,
        held,
        expiresAt: t.expiresAt,
        link,
        at: now.toISOString(),
      });
    });
    deps.notices.flush();
    links = [{ email: to, url: link }];
  }
  return { ...(await getSplits(deps, caller, release.id, release)), links };
}

/** POST /api/releases/:id/expenses: a recoupable expense or advance, repaid to `email` from gross. */
export async function addExpense(deps: SplitDeps, caller: Caller, releaseId: string, body: ExpenseBody) {
  const release = await releaseOf(deps, releaseId);
  if (!manages(caller, release)) throw fail('release_not_found', NO_SUCH_RELEASE);
  let amount: bigint;
  try {
    amount = parseAmount(body.amount);
  } catch (err) {
    refused(err);
  }
  if (amount <= 0n) throw invalidArgument('An expense is an amount above zero, like 250.00.');
  const email = normalizeEmail(body.email);
  const own = caller.userId === release.ownerId && email === normalizeEmail(caller.email);
  let party = own ? ownerParty(release.ownerId) : '';
  if (!party) {
    const inv = (await deps.splits.invitationsOf(release.id)).find(
      (i) => i.email === email && i.status !== 'reassigned',
    );
    if (!inv)
      throw invalidArgument(
        `${email} has no share of this release; add them to the splits first, or enter the expense as yours.`,
      );
    party = invParty(inv._id);
  }
  await deps.splits.addExpense({
    releaseId: release.id,
    kind: body.kind,
    party,
    email,
    amount: amount.toString(),
    note: body.note ?? '',
    createdBy: caller.userId,
  });
  return getSplits(deps, caller, release.id, release);
}

/** GET /api/splits/invitations/:token: what the link shows, to whoever holds it (signed in or not). */
export async function invitationByToken(deps: SplitDeps, token: string): Promise<InvitationView> {
  await lapseDue(deps);
  const inv = token ? await deps.splits.byTokenHash(hashToken(token)) : null;
  if (!inv)
    throw fail(
      'link_not_found',
      'This invitation link is not valid any more (a newer one may have been sent).',
    );
  return invitationView(deps, inv);
}

async function invitationView(deps: SplitDeps, inv: InvitationDoc): Promise<InvitationView> {
  const now = clock(deps);
  const versions = await deps.splits.versionsOf(inv.releaseId);
  const party = invParty(inv._id);
  const current = monthOf(now);
  const titles = titlesOf(await releaseOf(deps, inv.releaseId).catch(() => null));
  const shares = [...new Set(versions.map((v) => v.target))].flatMap((target) => {
    const entries = tableFor(versions, target, current) ?? [];
    const mine = entries.find((e) => e.party === party);
    const title = target ? titles.get(target) : `${inv.releaseTitle} (release default)`;
    return mine
      ? [{ target: target || null, percent: formatPercent(mine.units), ...(title ? { title } : {}) }]
      : [];
  });
  const invitedBy =
    versions.flatMap((v) => v.entries).find((e) => e.role === 'owner' && e.email)?.email ?? '';
  const months = await deps.payees.monthsOfParties([party]);
  return {
    invitationId: inv._id,
    releaseId: inv.releaseId,
    releaseTitle: inv.releaseTitle,
    email: inv.email,
    status: invitationJson(inv, 0n, 0n, now).status,
    expiresAt: inv.expiresAt,
    shares,
    held: formatAmount(sumOf(months, party)),
    currency: 'USD',
    invitedBy,
  };
}

/**
 * POST /api/splits/invitations/:token/accept: binds the share to the signed-in account, whatever address
 * it signed up with (the link is the proof; peers keep the money stuck until the same address signs up).
 */
export async function acceptInvitation(
  deps: SplitDeps,
  caller: Caller,
  token: string,
): Promise<InvitationView> {
  await lapseDue(deps);
  const inv = token ? await deps.splits.byTokenHash(hashToken(token)) : null;
  if (!inv)
    throw fail(
      'link_not_found',
      'This invitation link is not valid any more (a newer one may have been sent).',
    );
  if (inv.status === 'lapsed' || inv.expiresAt < clock(deps).toISOString())
    throw fail(
      'link_expired',
      `This invitation lapsed on ${inv.expiresAt.slice(0, 10)}. Your share is still held: ask the release's owner to send it again.`,
    );
  if (inv.ownerId === caller.userId)
    throw invalidArgument('This is your own release: its owner’s share is yours already.');
  await deps.splits.updateInvitation(
    inv._id,
    { status: 'accepted', boundTo: caller.userId },
    `accepted by the account ${caller.email || caller.userId}`,
    caller.userId,
    { unsetToken: true, where: { status: 'pending' } },
  );
  const after = await deps.splits.invitation(inv._id);
  return invitationView(deps, after!);
}

/** GET /api/me/earnings: the caller's balance, the shares held for them, and per-month statements. */
export async function myEarnings(deps: SplitDeps, caller: Caller): Promise<MyEarnings> {
  await lapseDue(deps);
  const now = clock(deps);
  const invitations = await deps.splits.invitationsFor(caller.userId, normalizeEmail(caller.email));
  const bound = invitations.filter((i) => i.boundTo === caller.userId);
  const held = invitations.filter((i) => !i.boundTo);
  const own = [ownerParty(caller.userId), ...bound.map((i) => invParty(i._id))];
  const rows = await deps.payees.monthsOfParties([...own, ...held.map((i) => invParty(i._id))]);
  const ownSet = new Set(own);
  let balance = 0n;
  const byMonth = new Map<string, { shares: bigint; recoupments: bigint }>();
  const byRelease = new Map<string, bigint>();
  for (const r of rows) {
    if (!ownSet.has(r.party)) continue;
    const split = BigInt(r.split);
    const recoup = BigInt(r.recoup);
    balance += split + recoup;
    const m = byMonth.get(r.saleMonth) ?? { shares: 0n, recoupments: 0n };
    m.shares += split;
    m.recoupments += recoup;
    byMonth.set(r.saleMonth, m);
    byRelease.set(r.releaseId, (byRelease.get(r.releaseId) ?? 0n) + split + recoup);
  }
  const heldRows = held.map((inv) => ({
    invitationId: inv._id,
    releaseId: inv.releaseId,
    releaseTitle: inv.releaseTitle,
    status: invitationJson(inv, 0n, 0n, now).status,
    expiresAt: inv.expiresAt,
    amount: formatAmount(sumOf(rows, invParty(inv._id))),
  }));
  return {
    currency: 'USD',
    balance: formatAmount(balance),
    heldTotal: formatAmount(held.reduce((t, i) => t + sumOf(rows, invParty(i._id)), 0n)),
    held: heldRows,
    statements: [...byMonth]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([saleMonth, m]) => ({
        saleMonth,
        shares: formatAmount(m.shares),
        recoupments: formatAmount(m.recoupments),
        total: formatAmount(m.shares + m.recoupments),
      })),
    releases: [...byRelease].map(([releaseId, amount]) => ({ releaseId, amount: formatAmount(amount) })),
  };
}

export const collaboratorCount = (deps: SplitDeps, ownerId: string) =>
  deps.splits.collaboratorsInvitedBy(ownerId);
