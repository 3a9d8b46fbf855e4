// Split tables, invitations and recoupable expenses: the only reader and writer of `split_versions`,
// `split_invitations` and `recoup_expenses`.
//
// A table is never edited: every change is a new version (target, effective month, entries), so the
// versions of a release are its history, and the allocator picks the one in force for each sale month.
// An invitation is a collaborator's seat on a release, found by address while it is pending and by the
// account it was bound to once accepted; its state changes are kept in its own history.
import { randomUUID } from 'node:crypto';
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import type { TableEntry, Version } from '../domain/splits/shares';

export const VERSIONS = 'split_versions';
export const INVITATIONS = 'split_invitations';
export const EXPENSES = 'recoup_expenses';
export const INVITE_TOKEN_INDEX = 'split_invite_token_unique';

export interface VersionDoc extends Doc, Version {
  releaseId: string;
  ownerId: string;
  createdAt: string;
  /** Account id of who set it (the owner or an admin). */
  createdBy: string;
}

export type InvitationStatus = 'pending' | 'accepted' | 'lapsed' | 'reassigned';

export interface InvitationDoc extends Doc {
  releaseId: string;
  releaseTitle: string;
  ownerId: string;
  /** Where the invitation was (last) sent, lower case. */
  email: string;
  status: InvitationStatus;
  /** SHA-256 of the link's secret; unset once accepted or reassigned to the owner. */
  tokenHash?: string;
  expiresAt: string;
  /** The account the share is paid to once accepted (or the owner's, when they took it back). */
  boundTo?: string;
  createdAt: string;
  updatedAt: string;
  /** Set when the owner has been told the invitation lapsed (once per lapse). */
  lapseNoticeAt?: string;
  history: Array<{ at: string; what: string; by: string }>;
}

export interface ExpenseDoc extends Doc {
  releaseId: string;
  kind: 'expense' | 'advance';
  /** Who is repaid: a party (`user:…` or `inv:…`) and the address shown for it. */
  party: string;
  email: string;
  /** Nano-USD, decimal strings. */
  amount: string;
  recouped: string;
  note: string;
  createdAt: string;
  createdBy: string;
}

export class SplitsRepository {
  readonly versions;
  readonly invitations;
  readonly expenses;

  constructor(private readonly store: DocumentStore) {
    this.versions = store.collection<VersionDoc>(VERSIONS, {
      indexes: [{ fields: { releaseId: 1 } }, { fields: { ownerId: 1 } }],
    });
    this.invitations = store.collection<InvitationDoc>(INVITATIONS, {
      indexes: [
        { fields: { releaseId: 1 } },
        { fields: { ownerId: 1 } },
        { fields: { email: 1 } },
        { fields: { boundTo: 1 } },
        { fields: { status: 1 } },
        { fields: { tokenHash: 1 }, unique: true, sparse: true, name: INVITE_TOKEN_INDEX },
      ],
    });
    this.expenses = store.collection<ExpenseDoc>(EXPENSES, { indexes: [{ fields: { releaseId: 1 } }] });
  }

  transaction<R>(work: (scope: TransactionScope) => Promise<R>) {
    return this.store.transaction(work);
  }

  versionsOf(releaseId: string) {
    return this.versions.find({ releaseId }, { sort: { seq: 1 } });
  }

  /** Versions of many releases (the allocator, a page at a time). */
  versionsOfReleases(releaseIds: readonly string[]) {
    return this.versions.find({ releaseId: { $in: [...releaseIds] } });
  }

  async addVersions(
    scope: TransactionScope,
    releaseId: string,
    ownerId: string,
    by: string,
    effectiveFrom: string,
    tables: Array<{ target: string; entries: TableEntry[] }>,
  ) {
    const c = scope.collection<VersionDoc>(VERSIONS);
    const [last] = await c.find({ releaseId }, { sort: { seq: -1 }, limit: 1 });
    let seq = last?.seq ?? 0;
    const now = new Date().toISOString();
    const docs = tables.map((t) => {
      seq += 1;
      return {
        _id: `${releaseId}:${String(seq).padStart(6, '0')}`,
        releaseId,
        ownerId,
        target: t.target,
        effectiveFrom,
        seq,
        entries: t.entries,
        createdAt: now,
        createdBy: by,
      };
    });
    if (docs.length) await c.insertMany(docs);
    return docs;
  }

  invitationsOf(releaseId: string) {
    return this.invitations.find({ releaseId }, { sort: { createdAt: 1 } });
  }

  invitation(id: string) {
    return this.invitations.findById(id);
  }

  byTokenHash(tokenHash: string) {
    return this.invitations.findOne({ tokenHash });
  }

  /** Invitations a person sees as theirs: bound to their account, or pending at their address. */
  async invitationsFor(userId: string, email: string) {
    const bound = await this.invitations.find({ boundTo: userId });
    const addressed = email ? await this.invitations.find({ email: email.toLowerCase() }) : [];
    const seen = new Set(bound.map((i) => i._id));
    return [...bound, ...addressed.filter((i) => !seen.has(i._id) && !i.boundTo)];
  }

  /** Every invitation the owner has sent, on any of their releases (the /app/splits overview). */
  invitationsOwnedBy(ownerId: string) {
    return this.invitations.find({ ownerId }, { sort: { createdAt: 1 } });
  }

  /** Distinct addresses the owner has invited to any of their releases (the /app Collaborators card). */
  async collaboratorsInvitedBy(ownerId: string): Promise<number> {
    const mine = await this.invitations.find({ ownerId });
    return new Set(mine.filter((i) => i.status !== 'reassigned').map((i) => i.email)).size;
  }

  async createInvitation(
    scope: TransactionScope,
    input: Pick<
      InvitationDoc,
      'releaseId' | 'releaseTitle' | 'ownerId' | 'email' | 'tokenHash' | 'expiresAt'
    >,
    by: string,
  ): Promise<InvitationDoc> {
    const now = new Date().toISOString();
    return scope.collection<InvitationDoc>(INVITATIONS).insertOne({
      _id: randomUUID(),
      ...input,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
      history: [{ at: now, what: `invited ${input.email}`, by }],
    });
  }

  /** Changes an invitation and notes what happened in its history. */
  updateInvitation(
    id: string,
    set: Partial<InvitationDoc>,
    what: string,
    by: string,
    options: { unsetToken?: boolean; scope?: TransactionScope; where?: Partial<InvitationDoc> } = {},
  ) {
    const c = options.scope ? options.scope.collection<InvitationDoc>(INVITATIONS) : this.invitations;
    const now = new Date().toISOString();
    return c.updateOne(
      { _id: id, ...(options.where ?? {}) },
      {
        $set: { ...set, updatedAt: now },
        $push: { history: { at: now, what, by } },
        ...(options.unsetToken ? { $unset: { tokenHash: 1 } } : {}),
      },
    );
  }

  /** Pending invitations whose link ran out by `now`. */
  pendingExpired(now: Date) {
    return this.invitations.find({ status: 'pending', expiresAt: { $lt: now.toISOString() } });
  }

  expensesOf(releaseId: string) {
    return this.expenses.find({ releaseId }, { sort: { createdAt: 1 } });
  }

  /** The releases' expenses, read in the allocator's transaction (it draws them down). */
  expensesIn(scope: TransactionScope, releaseIds: readonly string[]) {
    if (releaseIds.length === 0) return Promise.resolve([] as ExpenseDoc[]);
    return scope.collection<ExpenseDoc>(EXPENSES).find({ releaseId: { $in: [...releaseIds] } });
  }

  /** How much of an expense has been repaid so far (the allocator, in its transaction). */
  setRecouped(scope: TransactionScope, id: string, recouped: bigint) {
    return scope
      .collection<ExpenseDoc>(EXPENSES)
      .updateOne({ _id: id }, { $set: { recouped: recouped.toString() } });
  }

  addExpense(input: Omit<ExpenseDoc, '_id' | 'recouped' | 'createdAt'>) {
    return this.expenses.insertOne({
      _id: randomUUID(),
      ...input,
      recouped: '0',
      createdAt: new Date().toISOString(),
    });
  }
}
