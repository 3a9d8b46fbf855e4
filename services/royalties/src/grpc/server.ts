// RoyaltiesService over gRPC: adapts each request to its use case or repository read. Inputs are checked
// here too (the gateway checks first, but every service defends its own boundary).
import { invalidArgument, notFoundError, parseWith, type UnaryImpl } from '@omni/platform';
import type { royalties } from '@omni/proto';
import { expenseBody, invitationActionBody, isStatementSource, setSplitsBody } from '@omni/proto/api';
import type { ImportsRepository } from '../store/imports';
import type { UnmatchedRepository } from '../store/unmatched';
import { analytics, earningsSummary, type FigureDeps, playsOf } from '../use-cases/figures';
import { type MySplitsDeps, mySplits } from '../use-cases/my-splits';
import type { PayoutDeps } from '../use-cases/payouts/context';
import { openUpload, type ReceiveDeps } from '../use-cases/receive-statement';
import { ResolveRefused, type UnmatchedResolver } from '../use-cases/resolve-unmatched';
import {
  acceptInvitation,
  actOnInvitation,
  addExpense,
  type Caller,
  collaboratorCount,
  getSplits,
  invitationByToken,
  myEarnings,
  setSplits,
} from '../use-cases/splits';
import { importJson, unmatchedJson } from '../use-cases/statement-json';
import { payoutHandlers } from './payouts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const required = (value: string, what: string) => {
  if (!value) throw invalidArgument(`${what} is required.`);
  return value;
};

/** The caller the gateway verified; a request without one is a programming error, not a person's. */
const callerOf = (c: royalties.SplitCaller | undefined): Caller => ({
  userId: required(c?.userId ?? '', 'The caller'),
  email: c?.email ?? '',
  isAdmin: c?.isAdmin ?? false,
});
const bodyOf = (json: string) => {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw invalidArgument('The request body is not JSON.');
  }
};

export function royaltiesHandlers(
  deps: FigureDeps &
    ReceiveDeps & {
      split: MySplitsDeps;
      payout: PayoutDeps;
      imports: ImportsRepository;
      unmatched: UnmatchedRepository;
      resolver: UnmatchedResolver;
      lookAtReports: () => Promise<void>;
    },
): UnaryImpl<typeof royalties.RoyaltiesServiceService> {
  return {
    async openStatementUpload(req) {
      if (!isStatementSource(req.source))
        throw invalidArgument('Choose the report format: dsr, omni, distrokid, tunecore, cdbaby or apple.');
      const fileName = req.fileName.trim().slice(0, 255);
      if (!fileName) throw invalidArgument('Name the file (X-File-Name).');
      return openUpload(deps, { source: req.source, fileName, adminId: required(req.adminId, 'The admin') });
    },
    async getStatementImport(req) {
      const imp = await deps.imports.get(required(req.importId, 'The import id'));
      return { importJson: imp ? JSON.stringify(importJson(imp)) : undefined };
    },
    async listStatementImports(req) {
      const limit = req.limit > 0 ? Math.min(req.limit, 200) : 50;
      const imports = await deps.imports.recent(limit);
      return { listJson: JSON.stringify({ imports: imports.map(importJson) }) };
    },
    async listUnmatched() {
      // The summary, never the lines: a million waiting lines read and grouped here took past the deadline.
      return { listJson: JSON.stringify(unmatchedJson(await deps.unmatched.list())) };
    },
    async resolveUnmatched(req) {
      if (req.action !== 'attach' && req.action !== 'not_ours')
        throw invalidArgument("action must be 'attach' or 'not_ours'.");
      if (req.action === 'attach' && !req.to.trim())
        throw invalidArgument('Say which ISRC or UPC to attach the lines to.');
      try {
        const lines = await deps.resolver.resolve({
          identifier: req.identifier,
          action: req.action,
          to: req.to,
          adminId: required(req.adminId, 'The admin'),
        });
        return { lines };
      } catch (err) {
        if (err instanceof ResolveRefused) throw notFoundError(err.message);
        throw err;
      }
    },
    async getEarningsSummary(req) {
      return { summaryJson: JSON.stringify(await earningsSummary(deps, required(req.ownerId, 'The owner'))) };
    },
    async getAnalytics(req) {
      for (const m of [req.from, req.to])
        if (m && !MONTH.test(m)) throw invalidArgument('Months are written YYYY-MM, like 2026-10.');
      if (req.from && req.to && req.from > req.to)
        throw invalidArgument('The first month comes after the last.');
      const result = await analytics(deps, {
        ownerId: required(req.ownerId, 'The owner'),
        from: req.from,
        to: req.to,
        store: req.store,
        territory: req.territory,
        releaseId: req.releaseId,
        trackId: req.trackId,
      });
      return { analyticsJson: JSON.stringify(result) };
    },
    async scanReportFolder() {
      await deps.lookAtReports();
      return {};
    },
    async getPlays(req) {
      const plays = await playsOf(deps, required(req.ownerId, 'The owner'), req.isrcs);
      return { plays };
    },
    async getSplits(req) {
      const view = await getSplits(deps.split, callerOf(req.caller), req.releaseId);
      return { splitsJson: JSON.stringify(view) };
    },
    async setSplits(req) {
      const body = parseWith(setSplitsBody, bodyOf(req.bodyJson), { first: true });
      const view = await setSplits(deps.split, callerOf(req.caller), req.releaseId, body);
      return { splitsJson: JSON.stringify(view) };
    },
    async actOnInvitation(req) {
      const body = parseWith(invitationActionBody, bodyOf(req.bodyJson), { first: true });
      const view = await actOnInvitation(
        deps.split,
        callerOf(req.caller),
        req.releaseId,
        req.invitationId,
        body,
      );
      return { splitsJson: JSON.stringify(view) };
    },
    async addExpense(req) {
      const body = parseWith(expenseBody, bodyOf(req.bodyJson), { first: true });
      const view = await addExpense(deps.split, callerOf(req.caller), req.releaseId, body);
      return { splitsJson: JSON.stringify(view) };
    },
    async getInvitation(req) {
      return { invitationJson: JSON.stringify(await invitationByToken(deps.split, req.token)) };
    },
    async acceptInvitation(req) {
      const view = await acceptInvitation(deps.split, callerOf(req.caller), req.token);
      return { invitationJson: JSON.stringify(view) };
    },
    async getPayeeEarnings(req) {
      return { earningsJson: JSON.stringify(await myEarnings(deps.split, callerOf(req.caller))) };
    },
    async getMySplits(req) {
      const view = await mySplits(deps.split, callerOf(req.caller));
      return { splitsJson: JSON.stringify(view) };
    },
    async countCollaborators(req) {
      return { collaborators: await collaboratorCount(deps.split, required(req.ownerId, 'The owner')) };
    },
    ...payoutHandlers(deps.payout),
  };
}
