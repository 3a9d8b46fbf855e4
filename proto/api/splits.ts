// Splits and collaborators: the REST contract of a release's share tables (/api/releases/:id/splits), the
// owner's choices on an invitation, recoupable expenses, the invitation link's page
// (/api/splits/invitations/:token) and a payee's earnings (/api/me/earnings). Percentages cross the wire
// as decimal strings with up to 4 decimals ("33.3333"); money as USD decimal strings with up to 9
// decimals, never a float. The royalties service builds answers to these types, the gateway checks
// requests with them and passes answers through.
import * as z from 'zod/mini';

const amount = z.string().check(z.regex(/^-?\d+(\.\d{1,9})?$/));
const month = z
  .string()
  .check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Months are written YYYY-MM, like 2026-10.'));
const email = z
  .string()
  .check(
    z.trim(),
    z.maxLength(254),
    z.email('Write each collaborator’s email address, like name@example.com.'),
  );
/** A percentage: a number or a decimal string, 0 to 100, at most 4 decimals (the service says why not). */
const percent = z.union([z.number(), z.string().check(z.maxLength(12))]);

/** PUT /api/releases/:id/splits. No `tracks`: the release's default, copied to each of its tracks. */
export const setSplitsBody = z.object({
  tracks: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(200))),
  shares: z.array(z.object({ email, percent })).check(z.maxLength(50)),
  /** YYYY-MM: the sale month the change applies from (default: this month; never an earlier one). */
  effectiveFrom: z.optional(month),
});
export type SetSplitsBody = z.infer<typeof setSplitsBody>;

/** POST /api/releases/:id/splits/invitations/:invitationId — the owner's choice on a pending or lapsed invitation. */
export const invitationActionBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('resend') }),
  z.object({ action: z.literal('reassign'), email }),
  z.object({ action: z.literal('take_back') }),
]);
export type InvitationActionBody = z.infer<typeof invitationActionBody>;

/** POST /api/releases/:id/expenses — repaid to `email` (the owner or a collaborator) from gross, before the split. */
export const expenseBody = z.object({
  kind: z.enum(['expense', 'advance']),
  email,
  amount: z.string().check(z.maxLength(30)),
  note: z.optional(z.string().check(z.maxLength(200))),
});
export type ExpenseBody = z.infer<typeof expenseBody>;

export const INVITATION_STATUSES = ['pending', 'accepted', 'lapsed', 'reassigned'] as const;
const invitationStatus = z.enum(INVITATION_STATUSES);

const share = z.object({
  email: z.string(),
  percent: z.string(),
  role: z.enum(['owner', 'collaborator']),
  /** 'owner' for the owner's remainder; else the invitation's status. */
  status: z.union([invitationStatus, z.literal('owner')]),
  invitationId: z.nullable(z.string()),
});

export const invitation = z.object({
  id: z.string(),
  email: z.string(),
  status: invitationStatus,
  expiresAt: z.string(),
  /** Allocated to the share while it waits for the invitee (held, never reverted). */
  held: amount,
  /** Allocated to the share since it was bound to an account (the invitee's, or the owner's if taken back). */
  paidToAccount: amount,
  history: z.array(z.object({ at: z.string(), what: z.string(), by: z.string() })),
});
export type Invitation = z.infer<typeof invitation>;

/** GET /api/releases/:id/splits (and the answer to every change). A collaborator sees only their own shares. */
export const releaseSplits = z.object({
  releaseId: z.string(),
  title: z.string(),
  role: z.enum(['owner', 'admin', 'collaborator']),
  currency: z.literal('USD'),
  /** The current sale month: `tables` are the shares in force for it. */
  month,
  tables: z.array(
    z.object({
      /** null: the release default (whole-release lines, tracks without their own). */
      target: z.nullable(z.string()),
      title: z.string(),
      shares: z.array(share),
      upcoming: z.array(z.object({ effectiveFrom: month, shares: z.array(share) })),
    }),
  ),
  history: z.array(
    z.object({
      target: z.nullable(z.string()),
      effectiveFrom: month,
      setAt: z.string(),
      setBy: z.enum(['owner', 'admin']),
      shares: z.array(share),
    }),
  ),
  invitations: z.array(invitation),
  /** For the owner: lapsed invitations waiting for their choice. */
  notices: z.array(
    z.object({
      invitationId: z.string(),
      email: z.string(),
      message: z.string(),
      choices: z.array(z.enum(['resend', 'reassign', 'take_back'])),
    }),
  ),
  /** The recoup ledger, visible to every payee of the release. */
  recoup: z.object({
    expenses: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(['expense', 'advance']),
        email: z.string(),
        amount,
        recouped: amount,
        outstanding: amount,
        note: z.string(),
        createdAt: z.string(),
      }),
    ),
    entries: z.array(z.object({ expenseId: z.string(), email: z.string(), amount, at: z.string() })),
  }),
});
export type ReleaseSplits = z.infer<typeof releaseSplits>;

/** The answer to PUT splits and to an invitation's resend/reassign: the view, plus new links (shown once). */
export const splitsChanged = z.extend(releaseSplits, {
  links: z.array(z.object({ email: z.string(), url: z.string() })),
});

/** GET /api/splits/invitations/:token — what the invitation link shows (signed in or not). */
export const invitationView = z.object({
  invitationId: z.string(),
  releaseId: z.string(),
  releaseTitle: z.string(),
  email: z.string(),
  status: invitationStatus,
  expiresAt: z.string(),
  /** `title`: the track's (or the release default's) title, when catalog answered. */
  shares: z.array(
    z.object({ target: z.nullable(z.string()), percent: z.string(), title: z.optional(z.string()) }),
  ),
  held: amount,
  currency: z.literal('USD'),
  /** Who invites: the owner's address as the splits recorded it ('' when not known). */
  invitedBy: z.optional(z.string()),
});
export type InvitationView = z.infer<typeof invitationView>;

/** GET /api/me/earnings — a payee's balance (their shares and repayments), shares held for them, per month. */
export const myEarnings = z.object({
  currency: z.literal('USD'),
  balance: amount,
  heldTotal: amount,
  held: z.array(
    z.object({
      invitationId: z.string(),
      releaseId: z.string(),
      releaseTitle: z.string(),
      status: invitationStatus,
      expiresAt: z.string(),
      amount,
    }),
  ),
  statements: z.array(z.object({ saleMonth: month, shares: amount, recoupments: amount, total: amount })),
  releases: z.array(z.object({ releaseId: z.string(), amount })),
});
export type MyEarnings = z.infer<typeof myEarnings>;

/**
 * GET /api/me/splits — the /app/splits overview: the caller's own releases with their split state (the
 * release default's shares in force, pending and lapsed invitations with the owner's choices), and the
 * shares others invited the caller to. Only the caller's own; nobody else's release appears.
 */
export const mySplits = z.object({
  month,
  owned: z.array(
    z.object({
      releaseId: z.string(),
      title: z.string(),
      /** The release default in force this month ([] with no splits set: the whole release is the owner's). */
      shares: z.array(z.object({ email: z.string(), percent: z.string(), status: share.shape.status })),
      pending: z.array(z.object({ invitationId: z.string(), email: z.string(), expiresAt: z.string() })),
      lapsed: z.array(
        z.object({
          invitationId: z.string(),
          email: z.string(),
          expiresAt: z.string(),
          held: amount,
          choices: z.array(z.enum(['resend', 'reassign', 'take_back'])),
        }),
      ),
    }),
  ),
  /** Shares others invited the caller to: pending or lapsed at their address, or accepted into their account. */
  invited: z.array(
    z.object({
      invitationId: z.string(),
      releaseId: z.string(),
      releaseTitle: z.string(),
      status: invitationStatus,
      expiresAt: z.string(),
      /** Their share of the release default ('' when only tracks carry it). */
      percent: z.string(),
    }),
  ),
});
export type MySplits = z.infer<typeof mySplits>;
