// An admin decides about lines no recording matched: attach them to an Omni recording (ISRC) or release
// (UPC) — they enter the ledger then, as new lines of their own import, published at once — or mark them
// as not ours (they stay, counted and visible, outside the ledger).
import type { DocumentStore } from '@omni/platform';
import type { LedgerLine } from '../domain/ledger-line';
import type { LedgerRepository } from '../store/ledger';
import { lineOf, type UnmatchedRepository } from '../store/unmatched';
import type { Matcher } from './match-lines';

export class ResolveRefused extends Error {}

export async function resolveUnmatched(
  deps: {
    documents: DocumentStore;
    ledger: LedgerRepository;
    unmatched: UnmatchedRepository;
    matcher: () => Matcher;
  },
  input: { identifier: string; action: 'attach' | 'not_ours'; to: string; adminId: string },
): Promise<number> {
  const waiting = await deps.unmatched.openFor(input.identifier);
  if (waiting.length === 0)
    throw new ResolveRefused(`No lines are waiting for ${input.identifier || 'that identifier'}.`);
  if (input.action === 'not_ours') {
    await deps.documents.transaction((scope) =>
      deps.unmatched.resolve(
        scope,
        waiting.map((w) => w._id),
        { status: 'not_ours', resolvedBy: input.adminId },
      ),
    );
    return waiting.length;
  }
  const to = input.to.trim();
  const found = await deps.matcher().find(to);
  if (!found)
    throw new ResolveRefused(
      `No Omni recording has the ISRC ${to} and no release has the UPC ${to}. Check the code.`,
    );
  const byImport = new Map<string, LedgerLine[]>();
  for (const w of waiting) {
    const line = lineOf(w.line);
    const list = byImport.get(w.importId) ?? [];
    list.push({
      ...line,
      ownerId: found.ownerId,
      releaseId: found.releaseId,
      trackId: found.kind === 'isrc' ? found.trackId : '',
    });
    byImport.set(w.importId, list);
  }
  await deps.documents.transaction(async (scope) => {
    // Keyed by the first line's number: attaching the same lines twice cannot happen (they are no longer
    // open), and a page id never repeats.
    for (const [importId, lines] of byImport)
      await deps.ledger.append(scope, importId, `attached-${lines[0]!.lineNo}`, lines);
    await deps.unmatched.resolve(
      scope,
      waiting.map((w) => w._id),
      { status: 'attached', resolvedBy: input.adminId, attachedTo: to },
    );
  });
  return waiting.length;
}
