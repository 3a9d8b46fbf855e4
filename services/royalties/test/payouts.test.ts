// Payouts on the embedded store with the payout sandbox, its events delivered signed to the same verify
// and apply path the webhook route uses: the "why not paid" checklist, onboarding whose requirements
// shrink, a run that pays once (a rerun pays nobody twice), a payout to one of Stripe's failing test bank
// accounts that fails, returns the money with a reason in plain words and is retried after a day to a
// corrected account, every webhook replayed twice changing nothing, statements only their payee sees,
// and production refusing the sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type DocumentStore, type PlatformConfig } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import type { LedgerLine } from '../src/domain/ledger-line';
import { openPayouts, SandboxRefusedError } from '../src/providers/payouts/open';
import { createPayoutSandbox, type PayoutSandbox } from '../src/providers/payouts/sandbox';
import { ImportsRepository } from '../src/store/imports';
import { LedgerRepository } from '../src/store/ledger';
import { PayeesRepository } from '../src/store/payees';
import { PayoutsRepository } from '../src/store/payouts';
import { SplitsRepository } from '../src/store/splits';
import { PayeeAllocator } from '../src/use-cases/allocate-payees';
import { applyEvent, verifiedEvent } from '../src/use-cases/payouts/apply-event';
import type { PayoutCaller, PayoutDeps } from '../src/use-cases/payouts/context';
import { myPayouts, setMinimum, setTaxForm, startOnboarding } from '../src/use-cases/payouts/payee';
import { retryDue, runPayouts } from '../src/use-cases/payouts/run';
import { payeeStatement, statementCsv, statementPdf } from '../src/use-cases/payouts/statements';

const OWNER: PayoutCaller = { userId: 'u-owner', email: 'owner@example.test', isAdmin: false };
const STRANGER: PayoutCaller = { userId: 'u-x', email: 'x@example.test', isAdmin: false };
const ADMIN: PayoutCaller = { userId: 'u-admin', email: 'admin@omni.local', isAdmin: true };
const T0 = Date.now();
const DAY = 86_400_000;
const logger = createLogger({ level: 'silent' } as never);

function line(n: number, amount: bigint, store: string, territory: string): LedgerLine {
  return {
    lineNo: n,
    saleStart: '2026-05-01',
    saleEnd: '2026-05-31',
    reportedAt: '2026-06-15',
    store,
    serviceTier: '',
    territory,
    usageType: 'stream',
    isrc: 'QZAAA2600001',
    upc: '',
    proprietaryIds: [],
    title: 'One',
    artist: 'A',
    quantity: 10,
    amountTxn: amount,
    currencyTxn: 'USD',
    amountAcct: amount,
    fxRate: '1',
    fxDate: '',
    adjustmentType: '',
    ownerId: OWNER.userId,
    releaseId: 'rel-1',
    trackId: 'trk-1',
  };
}

describe('payouts', () => {
  let dir: string;
  let store: DocumentStore;
  let sandboxStore: DocumentStore;
  let sandbox: PayoutSandbox;
  let deps: PayoutDeps;
  let now: Date;
  let delivered: Array<{ payload: string; signature: string }>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payouts-'));
    store = createSqliteDocumentStore({ dataDir: dir, fsync: false });
    sandboxStore = createSqliteDocumentStore({ dataDir: join(dir, 'sbx'), fsync: false });
    await store.ready();
    // Real time: the allocator dates what it credits by the real clock, and statements group by it.
    now = new Date(T0);
    delivered = [];
    sandbox = await createPayoutSandbox({
      documents: sandboxStore,
      webhookSecret: 'whsec_test_payouts_secret_0123456789',
      publicUrl: () => 'http://omni.test',
      logger,
      // The route's path without HTTP: the same verification, the same apply.
      send: async (payload, signature) => {
        delivered.push({ payload, signature });
        await applyEvent(deps, verifiedEvent(deps, Buffer.from(payload), signature));
        return true;
      },
    });
    deps = {
      documents: store,
      payouts: new PayoutsRepository(store),
      payees: new PayeesRepository(store),
      splits: new SplitsRepository(store),
      provider: sandbox,
      publicUrl: 'http://omni.test',
      livemode: false,
      logger,
      now: () => now,
    };
  });
  afterEach(async () => {
    await sandbox.close();
    await store.close();
    await sandboxStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** $250.123456789 allocated to the owner (no split table: all theirs), Spotify US and Deezer FR. */
  async function earn() {
    const imports = new ImportsRepository(store);
    const ledger = new LedgerRepository(store, (ids) => imports.publishedOf(ids));
    const imp = await imports.open({
      source: 'omni',
      fileName: 'x.csv',
      via: 'upload',
      createdBy: ADMIN.userId,
    });
    const lines = [
      line(1, 200_000_000_000n, 'Spotify', 'US'),
      line(2, 50_000_000_000n, 'Deezer', 'FR'),
      line(3, 123_456_789n, 'Spotify', 'US'),
    ];
    await store.transaction((scope) => ledger.stage(scope, imp._id, 0, lines));
    await imports.set(imp._id, {
      state: 'done',
      checkpoint: { lineNo: lines.length, chunks: 1 },
      published: 1,
    });
    const allocator = new PayeeAllocator({
      documents: store,
      imports,
      ledger,
      splits: deps.splits,
      payees: deps.payees,
      logger,
    });
    expect(await allocator.pass()).toBeGreaterThan(0);
  }

  async function onboard(bankAccount: string) {
    const { url } = await startOnboarding(deps, OWNER);
    expect(url).toMatch(/^http:\/\/omni\.test\/payouts-sandbox\/onboard\//);
    const payee = await deps.payouts.payee(OWNER.userId);
    const accountId = payee!.account!.accountId;
    expect(payee!.account!.currentlyDue).toContain('external_account');
    // Half the form: the requirements shrink, the account is not verified yet.
    const left = await sandbox.complete(accountId, {
      'individual.first_name': 'Ana',
      'individual.last_name': 'Owner',
      'individual.dob.day': '1901-01-01',
    });
    expect(left).toEqual([
      'individual.address.line1',
      'individual.ssn_last_4',
      'external_account',
      'tos_acceptance.date',
    ]);
    await sandbox.flush();
    let view = await myPayouts(deps, OWNER);
    expect(view.account).toEqual({ status: 'incomplete', currentlyDue: left });
    await sandbox.complete(accountId, {
      'individual.address.line1': 'address_full_match',
      'individual.ssn_last_4': '0000',
      'tos_acceptance.date': 'yes',
      routing_number: '110000000',
      account_number: bankAccount,
    });
    await sandbox.flush();
    view = await myPayouts(deps, OWNER);
    expect(view.account.status).toBe('verified');
    return accountId;
  }

  it('says why a payee is not paid, item by item, until everything is there', async () => {
    await earn();
    let view = await myPayouts(deps, OWNER);
    expect(view.balance).toBe('250.123456789');
    expect(view.payable).toBe('250.12');
    expect(view.checklist.ready).toBe(false);
    expect(view.checklist.items.filter((i) => !i.ok).map((i) => i.key)).toEqual(['tax_form', 'account']);
    expect(view.checklist.nextRun).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await setTaxForm(deps, OWNER, { kind: 'W-9', legalName: 'Ana Owner', country: 'US', certify: true });
    await expect(
      setTaxForm(deps, OWNER, { kind: 'W-9', legalName: 'Ana Owner', country: 'FR', certify: true }),
    ).rejects.toThrow(/W-9 is for US persons/);
    await onboard('000123456789');
    await expect(setMinimum(deps, OWNER, { minimumCents: 50 })).rejects.toThrow(/between \$1/);
    view = await setMinimum(deps, OWNER, { minimumCents: 30_000 });
    expect(view.checklist.items.find((i) => i.key === 'threshold')).toEqual({
      key: 'threshold',
      ok: false,
      text: 'Your balance ($250.12) is below your minimum of $300.00.',
    });
    expect((await runPayouts(deps, '2026-07-04')).paid).toBe(0);
    view = await setMinimum(deps, OWNER, { minimumCents: 2_000 });
    expect(view.checklist.ready).toBe(true);
  });

  it('fails a payout to a failing test bank account, returns the money, says why, and retries it', async () => {
    await earn();
    await setTaxForm(deps, OWNER, { kind: 'W-9', legalName: 'Ana Owner', country: 'US', certify: true });
    const accountId = await onboard('000111111116');
    const run = await runPayouts(deps, '2026-07-04');
    expect(run).toMatchObject({ paid: 1, amountCents: 25_012n });
    await sandbox.flush();
    // A rerun of the same run pays nobody twice.
    expect((await runPayouts(deps, '2026-07-04')).paid).toBe(0);
    let view = await myPayouts(deps, OWNER);
    // Whole cents left; the sub-cent remainder stays in the balance.
    expect(view.balance).toBe('0.003456789');
    expect(view.payouts[0]).toMatchObject({ state: 'pending', amount: '250.12', attempt: 1 });
    expect(view.checklist.items.find((i) => i.key === 'in_flight')?.ok).toBe(false);

    await sandbox.advance(86_400);
    expect((await myPayouts(deps, OWNER)).payouts[0]!.state).toBe('in_transit');
    await sandbox.advance(86_400);
    view = await myPayouts(deps, OWNER);
    expect(view.payouts[0]).toMatchObject({
      state: 'failed',
      failure: 'The bank could not find this account number. Check the account and routing numbers.',
      retryAt: new Date(T0 + DAY).toISOString(),
    });
    expect(view.balance).toBe('250.123456789');
    expect(view.checklist.lastFailure).toMatch(/^Your last payout failed: The bank could not find/);

    // Not yet: the retry waits its day. The payee corrects the account meanwhile.
    expect(await retryDue(deps)).toBe(0);
    await sandbox.complete(accountId, { routing_number: '110000000', account_number: '000123456789' });
    await sandbox.flush();
    now = new Date(T0 + DAY + 1000);
    expect(await retryDue(deps)).toBe(1);
    expect(await retryDue(deps)).toBe(0);
    await sandbox.flush();
    await sandbox.advance(2 * 86_400);
    view = await myPayouts(deps, OWNER);
    expect(view.payouts.map((p) => [p.attempt, p.state])).toEqual([
      [2, 'paid'],
      [1, 'failed'],
    ]);
    expect(view.balance).toBe('0.003456789');

    // Every event the sandbox sent, delivered twice more: nothing changes.
    const before = JSON.stringify(await deps.payouts.payouts.find({}, { sort: { _id: 1 } }));
    const payeeBefore = JSON.stringify(await deps.payouts.payee(OWNER.userId));
    expect(delivered.length).toBeGreaterThan(8);
    for (let i = 0; i < 2; i += 1)
      for (const d of delivered) {
        const r = await applyEvent(deps, verifiedEvent(deps, Buffer.from(d.payload), d.signature));
        expect(r.applied).toBe(false);
      }
    expect(JSON.stringify(await deps.payouts.payouts.find({}, { sort: { _id: 1 } }))).toBe(before);
    expect(JSON.stringify(await deps.payouts.payee(OWNER.userId))).toBe(payeeBefore);
    // A forged signature is refused and changes nothing.
    expect(() => verifiedEvent(deps, Buffer.from(delivered[0]!.payload), 't=1,v1=00')).toThrow(
      /signature did not verify/,
    );

    // The month's statement: only its payee (or an admin) sees it.
    const period = (await myPayouts(deps, OWNER)).statements[0]!.period;
    const s = await payeeStatement(deps, OWNER, OWNER.userId, period);
    expect(s.income).toEqual([
      { store: 'Deezer', territory: 'FR', saleMonth: '2026-05', amount: '50.00' },
      { store: 'Spotify', territory: 'US', saleMonth: '2026-05', amount: '200.123456789' },
    ]);
    expect(s.opening).toBe('0.00');
    await expect(payeeStatement(deps, STRANGER, OWNER.userId, period)).rejects.toThrow(/No such statement/);
    expect((await payeeStatement(deps, ADMIN, OWNER.userId, period)).payeeId).toBe(OWNER.userId);
    const csv = statementCsv(s);
    expect(csv.split('\r\n')[0]).toBe('section,store,territory,sale_month,date,description,amount_usd');
    expect(csv).toContain('income,Spotify,US,2026-05,,,200.123456789');
    // Amounts exact and unquoted (a payout is written negative); text that would run as a formula is not.
    const odd = statementCsv({
      ...s,
      income: [{ store: '=HYPERLINK("x")', territory: 'US', saleMonth: '2026-05', amount: '1.00' }],
      transfers: [{ id: 'p1', date: '2026-06-01', amount: '12.34', state: 'paid' }],
    });
    expect(odd).toContain('income,"\'=HYPERLINK(""x"")",US,2026-05,,,1.00\r\n');
    expect(odd).toContain(',Payout p1 (paid),-12.34\r\n');
    const pdf = Buffer.from(await statementPdf(s, OWNER.email));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses the sandbox in production', async () => {
    const config = {
      env: { NODE_ENV: 'production', PAYOUTS: 'embedded' },
      dataDir: dir,
      publicUrl: 'http://omni.test',
    } as unknown as PlatformConfig;
    await expect(openPayouts(config, { documents: async () => sandboxStore, logger })).rejects.toThrow(
      SandboxRefusedError,
    );
  });
});
