// `npm run bench:payouts`: the allocation of the ledger to payees and a payout run, at scale, on the
// embedded SQLite store, in this process (the payout sandbox's events applied in-process through the same
// verify-and-apply path the webhook route uses).
//
// 1. 1,000,000 ledger lines (BENCH_PAYOUTS_LINES) over 10,000 releases, each with its split table (the
//    owner 60 %, a collaborator 40 % through an accepted invitation): 5,000 owners and 5,000 collaborators,
//    10,000 payees. Staged as the import leaves them (chunks of 25,000 lines, published).
// 2. The allocator (use-cases/allocate-payees.ts) allocates every page: time, lines/s.
// 3. Every payee has a tax form and a verified sandbox account; the payout run pays each payee whose
//    balance reaches the minimum: time, payouts/s, and the events applied.
// 4. Idempotent: the allocator's second pass allocates nothing, the run's rerun pays nobody.
// Memory: RSS and heap sampled every 250 ms; goal: the whole under 60 s on this machine, memory flat.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import type { LedgerLine } from '../../services/royalties/src/domain/ledger-line';
import { createPayoutSandbox } from '../../services/royalties/src/providers/payouts/sandbox';
import { ImportsRepository } from '../../services/royalties/src/store/imports';
import { LedgerRepository } from '../../services/royalties/src/store/ledger';
import { PayeesRepository } from '../../services/royalties/src/store/payees';
import { PayoutsRepository } from '../../services/royalties/src/store/payouts';
import { type InvitationDoc, SplitsRepository } from '../../services/royalties/src/store/splits';
import { PayeeAllocator } from '../../services/royalties/src/use-cases/allocate-payees';
import { applyEvent, verifiedEvent } from '../../services/royalties/src/use-cases/payouts/apply-event';
import type { PayoutDeps } from '../../services/royalties/src/use-cases/payouts/context';
import { runPayouts } from '../../services/royalties/src/use-cases/payouts/run';

const LINES = Number(process.env.BENCH_PAYOUTS_LINES ?? 1_000_000);
const RELEASES = Number(process.env.BENCH_PAYOUTS_RELEASES ?? 10_000);
const OWNERS = RELEASES / 2;
const CHUNK = 25_000;
const logger = createLogger({ level: 'error' } as never);
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;

let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 250);
function phase() {
  const m = process.memoryUsage();
  peakRss = m.rss;
  peakHeap = m.heapUsed;
  return performance.now();
}
const rows: string[][] = [];
function report(what: string, t0: number, extra: string) {
  const s = (performance.now() - t0) / 1000;
  rows.push([what, `${s.toFixed(1)} s`, extra, mb(peakRss), mb(peakHeap)]);
  console.log(`${what}: ${s.toFixed(1)} s, ${extra}, peak RSS ${mb(peakRss)}, peak heap ${mb(peakHeap)}`);
  return s;
}

function line(n: number, r: number): LedgerLine {
  const stores = ['Spotify', 'Apple Music', 'Deezer', 'YouTube Music', 'Amazon Music'];
  const territories = ['US', 'GB', 'FR', 'DE', 'BR', 'JP', 'MX', 'SE'];
  return {
    lineNo: n,
    saleStart: '2026-05-01',
    saleEnd: '2026-05-31',
    reportedAt: '2026-06-15',
    store: stores[n % stores.length]!,
    serviceTier: '',
    territory: territories[(n >> 3) % territories.length]!,
    usageType: 'stream',
    isrc: `QZAAA26${String(r).padStart(5, '0')}`,
    upc: '',
    proprietaryIds: [],
    title: `Track ${r}`,
    artist: `Artist ${r % OWNERS}`,
    quantity: 1000,
    amountTxn: 3_456_789_123n,
    currencyTxn: 'USD',
    amountAcct: 3_456_789_123n,
    fxRate: '1',
    fxDate: '',
    adjustmentType: '',
    ownerId: `o${r % OWNERS}`,
    releaseId: `r${r}`,
    trackId: `t${r}`,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-payouts-'));
  const store = createSqliteDocumentStore({ dataDir: dir });
  const sandboxStore = createSqliteDocumentStore({ dataDir: join(dir, 'sandbox') });
  await store.ready();
  const imports = new ImportsRepository(store);
  const ledger = new LedgerRepository(store, (ids) => imports.publishedOf(ids));
  const splits = new SplitsRepository(store);
  const payees = new PayeesRepository(store);
  let applied = 0;
  let deps: PayoutDeps;
  const sandbox = await createPayoutSandbox({
    documents: sandboxStore,
    webhookSecret: 'whsec_bench_payouts_0123456789abcdef',
    publicUrl: () => 'http://omni.bench',
    logger,
    send: async (payload, signature) => {
      await applyEvent(deps, verifiedEvent(deps, Buffer.from(payload), signature));
      applied += 1;
      return true;
    },
  });
  deps = {
    documents: store,
    payouts: new PayoutsRepository(store),
    payees,
    splits,
    provider: sandbox,
    publicUrl: 'http://omni.bench',
    livemode: false,
    logger,
  };

  console.log(
    `bench:payouts — ${LINES.toLocaleString()} lines, ${RELEASES.toLocaleString()} split tables, ${RELEASES.toLocaleString()} payees`,
  );
  let t = phase();
  const now = new Date().toISOString();
  for (let r0 = 0; r0 < RELEASES; r0 += 1000) {
    await store.transaction(async (scope) => {
      const invs: InvitationDoc[] = [];
      for (let r = r0; r < Math.min(RELEASES, r0 + 1000); r += 1) {
        const inv = `i${r}`;
        invs.push({
          _id: inv,
          releaseId: `r${r}`,
          releaseTitle: `Release ${r}`,
          ownerId: `o${r % OWNERS}`,
          email: `c${r % OWNERS}@bench.test`,
          status: 'accepted',
          expiresAt: now,
          boundTo: `c${r % OWNERS}`,
          createdAt: now,
          updatedAt: now,
          history: [],
        });
        await splits.addVersions(scope, `r${r}`, `o${r % OWNERS}`, 'bench', '2026-01', [
          {
            target: '',
            entries: [
              { party: `user:o${r % OWNERS}`, email: '', units: 600_000, role: 'owner' },
              {
                party: `inv:${inv}`,
                email: `c${r % OWNERS}@bench.test`,
                units: 400_000,
                role: 'collaborator',
              },
            ],
          },
        ]);
      }
      await scope.collection<InvitationDoc>('split_invitations').insertMany(invs);
    });
  }
  const imp = await imports.open({
    source: 'omni',
    fileName: 'bench.csv',
    via: 'upload',
    createdBy: 'bench',
  });
  let chunks = 0;
  for (let n0 = 0; n0 < LINES; n0 += CHUNK) {
    const lines: LedgerLine[] = [];
    for (let n = n0; n < Math.min(LINES, n0 + CHUNK); n += 1) lines.push(line(n, n % RELEASES));
    await store.transaction((scope) => ledger.stage(scope, imp._id, chunks, lines));
    chunks += 1;
  }
  await imports.set(imp._id, { state: 'done', checkpoint: { lineNo: LINES, chunks }, published: chunks });
  report('setup: split tables and ledger', t, `${chunks} chunks`);

  t = phase();
  const allocator = new PayeeAllocator({ documents: store, imports, ledger, splits, payees, logger });
  const pages = await allocator.pass();
  const allocS = report(
    'allocation',
    t,
    `${pages} pages, ${Math.round(LINES / ((performance.now() - t) / 1000)).toLocaleString()} lines/s`,
  );

  t = phase();
  const payeeIds = [
    ...Array.from({ length: OWNERS }, (_, i) => `o${i}`),
    ...Array.from({ length: OWNERS }, (_, i) => `c${i}`),
  ];
  for (const id of payeeIds) {
    await deps.payouts.ensurePayee(id, `${id}@bench.test`);
    const facts = await sandbox.createAccount({ payeeId: id, email: `${id}@bench.test` }, `account:${id}`);
    await deps.payouts.setPayee(id, {
      taxForm: { kind: 'W-9', legalName: id, country: 'US', treatyClaim: '', signedAt: now },
      account: {
        accountId: facts.accountId,
        status: 'verified',
        currentlyDue: [],
        disabledReason: '',
        eventCreated: 0,
        updatedAt: now,
      },
    });
    await sandbox.complete(facts.accountId, {
      'individual.first_name': 'B',
      'individual.last_name': 'B',
      'individual.dob.day': '1901-01-01',
      'individual.address.line1': 'address_full_match',
      'individual.ssn_last_4': '0000',
      'tos_acceptance.date': 'yes',
      routing_number: '110000000',
      account_number: '000123456789',
    });
  }
  await sandbox.flush();
  report(
    `setup: ${payeeIds.length.toLocaleString()} payees onboarded in the sandbox`,
    t,
    `${applied} events`,
  );

  t = phase();
  applied = 0;
  const run = await runPayouts(deps, '2026-07-04');
  await sandbox.flush();
  const runS = report(
    'payout run',
    t,
    `${run.paid} paid, ${run.skipped} skipped, $${(Number(run.amountCents) / 100).toLocaleString()}, ${applied} events applied`,
  );

  t = phase();
  const again = await allocator.pass();
  const rerun = await runPayouts(deps, '2026-07-04');
  report('rerun (idempotent)', t, `${again} pages allocated, ${rerun.paid} paid`);
  if (again !== 0 || rerun.paid !== 0) throw new Error('the rerun was not idempotent');

  clearInterval(sampler);
  console.log(`\n| step | time | what | peak RSS | peak heap |\n|---|---|---|---|---|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log(`\nallocation + payout run: ${(allocS + runS).toFixed(1)} s (goal < 60 s)`);
  await sandbox.close();
  await store.close();
  await sandboxStore.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
