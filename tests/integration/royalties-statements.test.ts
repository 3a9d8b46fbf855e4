// Statements in, earnings out, through the gateway as an admin and an artist use them: a CSV for an
// artist's release is imported, /api/dashboard and /api/analytics show its sums to the cent, the same file
// again changes nothing, a line for an unknown ISRC waits in the queue and reconciles, and a file whose
// structure is wrong is refused whole.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { type StatementImport, statementAccepted, statementImport, unmatchedList } from '@omni/proto/api';
import { createDsrWriter, SummaryTotals } from '../../services/delivery/src/simulator/reports/dsr-writer';
import { parseNano } from '../../services/delivery/src/simulator/reports/nano';
import { formatAmount } from '../../services/royalties/src/domain/money';
import { ImportsRepository } from '../../services/royalties/src/store/imports';
import { LedgerRepository } from '../../services/royalties/src/store/ledger';
import { type ReleasePlatform, releaseBody, startReleasePlatform, waitUntil } from './releases.fixtures';

let platform: ReleasePlatform;
let admin: string;

beforeAll(async () => {
  platform = await startReleasePlatform();
  admin = await platform.token(randomUUID(), ['admin']);
});
afterAll(async () => {
  await platform?.close();
});

async function artistWithRelease() {
  const userId = randomUUID();
  const token = await platform.token(userId);
  const res = await platform.api('/api/releases', { method: 'POST', token, json: releaseBody(userId) });
  expect(res.status).toBe(201);
  const { release } = (await res.json()) as {
    release: { id: string; upc: string; tracks: { isrc: string }[] };
  };
  return { userId, token, release, isrc: release.tracks[0]!.isrc };
}

const send = (source: string, name: string, body: string | Buffer, token = admin) =>
  fetch(`${platform.url}/api/admin/statements?source=${source}`, {
    method: 'POST',
    body,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'x-file-name': name,
    },
  });

async function finished(id: string): Promise<StatementImport> {
  return waitUntil(
    async () => {
      const res = await platform.api(`/api/admin/statements/${id}`, { token: admin });
      const imp = statementImport.parse(await res.json());
      return imp.state === 'done' || imp.state === 'refused' ? imp : undefined;
    },
    30_000,
    'the import to finish',
  );
}

/** A USD decimal string as nano-dollars. */
const nano = (usd: string) => {
  const [int, frac = ''] = usd.replace('-', '').split('.');
  const value = BigInt(int!) * 1_000_000_000n + BigInt(frac.padEnd(9, '0'));
  return usd.startsWith('-') ? -value : value;
};

const CANONICAL_HEADER =
  'sale_start,sale_end,reported_at,store,service_tier,territory,usage_type,isrc,upc,title,artist,quantity,amount,currency,amount_usd,fx_rate,fx_date,adjustment_type';

describe('a CSV statement for an artist', () => {
  it('lands in the ledger, /app and /app/analytics to the cent; again changes nothing; unknown ISRCs wait', async () => {
    const a = await artistWithRelease();
    const csv = [
      CANONICAL_HEADER,
      `2026-09-01,2026-09-30,2026-11-15,Spotify,premium,US,stream,${a.isrc},${a.release.upc},Night Drive,Nova Reyes,1200,4.20000000,USD,4.20000000,1,,`,
      `2026-09-01,2026-09-30,2026-11-15,Spotify,ad-supported,DE,stream,${a.isrc},,Night Drive,Nova Reyes,800,1.50000000,EUR,1.62000000,1.08,2026-09-30,`,
      `2026-09-01,2026-09-30,2026-11-15,Apple Music,,GB,stream,${a.isrc},,Night Drive,Nova Reyes,300,2.10000001,USD,2.10000001,1,,`,
      `2026-09-01,2026-09-30,2026-11-15,Spotify,,US,stream,${a.isrc},,Night Drive,Nova Reyes,-50,-0.17500000,USD,-0.17500000,1,,spam_deduction`,
      '2026-09-01,2026-09-30,2026-11-15,Spotify,,US,stream,QZZZZ9900001,,Someone Else,Other Artist,999,3.33000000,USD,3.33000000,1,,',
    ].join('\n');
    const res = await send('omni', 'omni-2026-09.csv', gzipSync(csv));
    expect(res.status).toBe(202);
    const accepted = statementAccepted.parse(await res.json());
    expect(accepted.duplicate).toBe(false);
    const imp = await finished(accepted.id);
    expect(imp.state).toBe('done');
    expect(imp.lines).toEqual({ total: 5, imported: 4, unmatched: 1, refused: 0 });
    expect(imp.period).toEqual({ start: '2026-09-01', end: '2026-09-30' });
    expect(imp.reportedAt).toBe('2026-11-15');
    expect(imp.reconciliation).toEqual({
      file: '11.07500001',
      imported: '7.74500001',
      unmatched: '3.33',
      refused: '0.00',
      balanced: true,
    });

    const dash = (await (await platform.api('/api/dashboard', { token: a.token })).json()) as Record<
      string,
      unknown
    >;
    expect(dash.totalEarningsUsd).toBe('7.74500001');
    expect(dash.totalEarnings).toBe(7.75);
    expect(dash.monthlyStreams).toBe(2250);
    expect(dash.streamsMonth).toEqual({ saleMonth: '2026-09', reportedMonth: '2026-11' });

    const an = (await (await platform.api('/api/analytics', { token: a.token })).json()) as {
      earnings: {
        byStore: { key: string; amount: string; streams: number }[];
        byTerritory: { key: string; amount: string }[];
      };
    };
    expect(an.earnings.byStore).toEqual([
      expect.objectContaining({ key: 'Spotify', streams: 1950, amount: '5.645' }),
      expect.objectContaining({ key: 'Apple Music', streams: 300, amount: '2.10000001' }),
    ]);
    expect(an.earnings.byTerritory.find((t) => t.key === 'DE')?.amount).toBe('1.62');

    // The same bytes again: the earlier import, nothing added.
    const again = await send('omni', 'copy-of-omni-2026-09.csv', gzipSync(csv));
    expect(again.status).toBe(200);
    const dup = statementAccepted.parse(await again.json());
    expect(dup).toMatchObject({ id: accepted.id, duplicate: true });
    const dash2 = (await (await platform.api('/api/dashboard', { token: a.token })).json()) as Record<
      string,
      unknown
    >;
    expect(dash2.totalEarningsUsd).toBe('7.74500001');

    // Another artist sees none of it.
    const other = await platform.token(randomUUID());
    const otherDash = (await (await platform.api('/api/dashboard', { token: other })).json()) as Record<
      string,
      unknown
    >;
    expect(otherDash.totalEarningsUsd).toBe('0.00');

    // The unknown ISRC waits; attaching it to the artist's recording moves its money into their ledger.
    const queue = unmatchedList.parse(
      await (await platform.api('/api/admin/statements/unmatched', { token: admin })).json(),
    );
    const group = queue.groups.find((g) => g.identifier === 'QZZZZ9900001');
    expect(group).toMatchObject({ status: 'open', lines: 1, amount: '3.33', title: 'Someone Else' });
    const attach = await platform.api('/api/admin/statements/unmatched/resolve', {
      method: 'POST',
      token: admin,
      json: { action: 'attach', identifier: 'QZZZZ9900001', to: a.isrc },
    });
    expect(attach.status).toBe(200);
    const dash3 = (await (await platform.api('/api/dashboard', { token: a.token })).json()) as Record<
      string,
      unknown
    >;
    expect(dash3.totalEarningsUsd).toBe('11.07500001');

    // The rollups the figures read are the ledger folded again.
    const documents = await platform.ports.documents('royalties');
    const imports = new ImportsRepository(documents);
    const ledger = new LedgerRepository(documents, (ids) => imports.publishedOf(ids));
    const refolded = await ledger.refold();
    const rows = await ledger.monthsOf(a.userId);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(refolded.months.get(row._id)?.amount.toString()).toBe(row.amount);
  });

  it('refuses a file whose columns are not the template’s, and changes nothing', async () => {
    const res = await send('omni', 'wrong.csv', 'date,song,money\n2026-09-01,x,1\n');
    const { id } = statementAccepted.parse(await res.json());
    const imp = await finished(id);
    expect(imp.state).toBe('refused');
    expect(imp.refusal).toMatch(/column/i);
    expect(imp.lines.imported).toBe(0);
  });

  it('answers a person-readable 4xx for an unknown format, a missing name, and a non-admin', async () => {
    const bad = await send('spotify-xml', 'x.csv', 'a');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/format/);
    const artist = await platform.token(randomUUID());
    expect((await send('omni', 'x.csv', 'a', artist)).status).toBe(403);
    const noName = await fetch(`${platform.url}/api/admin/statements?source=omni`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: 'x',
    });
    expect(noName.status).toBe(400);
  });
});

describe('an import cut off by a stop', () => {
  it('resumes after the last chunk written when the service starts again: every line counted once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omni-royalties-resume-'));
    let first: ReleasePlatform | undefined = await startReleasePlatform(dir);
    let second: ReleasePlatform | undefined;
    try {
      const userId = randomUUID();
      const token = await first.token(userId);
      const created = await first.api('/api/releases', { method: 'POST', token, json: releaseBody(userId) });
      const { release } = (await created.json()) as { release: { tracks: { isrc: string }[] } };
      const isrc = release.tracks[0]!.isrc;
      const adminToken = await first.token(randomUUID(), ['admin']);
      // Several chunks (the first ones smaller): the stop lands part-way however fast or loaded the machine is.
      const lines = 500_000;
      const rows = [CANONICAL_HEADER];
      let expected = 0n;
      for (let i = 0; i < lines; i += 1) {
        const cents = 1 + (i % 97);
        expected += BigInt(cents) * 10_000_000n;
        rows.push(
          `2026-08-01,2026-08-31,2026-10-15,Spotify,,US,stream,${isrc},,T,A,1,0.${String(cents).padStart(2, '0')},USD,0.${String(cents).padStart(2, '0')},1,,`,
        );
      }
      const res = await fetch(`${first.url}/api/admin/statements?source=omni`, {
        method: 'POST',
        body: rows.join('\n'),
        headers: { authorization: `Bearer ${adminToken}`, 'x-file-name': 'big.csv' },
      });
      const { id } = statementAccepted.parse(await res.json());
      const api = first;
      // Stop as soon as some chunks are written but not all.
      await waitUntil(
        async () => {
          const imp = statementImport.parse(
            await (await api.api(`/api/admin/statements/${id}`, { token: adminToken })).json(),
          );
          return imp.lines.total > 0 && imp.lines.total < lines ? imp : undefined;
        },
        120_000,
        'the import to be part-way',
      );
      await first.close({ keepData: true });
      first = undefined;
      second = await startReleasePlatform(dir);
      const again = second;
      const imp = await waitUntil(
        async () => {
          const got = statementImport.parse(
            await (await again.api(`/api/admin/statements/${id}`, { token: adminToken })).json(),
          );
          return got.state === 'done' ? got : undefined;
        },
        180_000,
        'the resumed import to finish',
      );
      expect(imp.lines).toEqual({ total: lines, imported: lines, unmatched: 0, refused: 0 });
      expect(imp.reconciliation.balanced).toBe(true);
      const dash = (await (await second.api('/api/dashboard', { token })).json()) as Record<string, unknown>;
      expect(dash.totalEarningsUsd).toBe(formatAmount(expected));
      expect(dash.monthlyStreams).toBe(lines);
    } finally {
      await first?.close({ keepData: true });
      await second?.close();
    }
  }, 400_000);
});

/** A one-summary, two-line DSR (Financial Reporting SRB) for `isrc`, written by the store simulator's writer. */
async function dsr(isrc: string | string[], messageId: string, createdAt: string): Promise<string> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  const writer = createDsrWriter(out, {
    messageId,
    createdAt,
    usageStart: '2026-09-01',
    usageEnd: '2026-09-30',
    sender: { partyId: 'PADPIDA2014120301U', name: 'Deezer' },
    serviceDescription: 'DeezerPremium',
  });
  const isrcs = typeof isrc === 'string' ? [isrc, isrc] : isrc;
  const lines = isrcs.map((code, i) => ({
    summaryId: '',
    dspReleaseId: 'R1',
    isrc: code,
    date: '2026-09-30',
    usages: 100 + i,
    returns: 0,
    unitPriceNano: 3_000_000n,
  }));
  const totals = new SummaryTotals();
  for (const l of lines) totals.add(l, parseNano('1'));
  const id = writer.summary({
    commercialModel: 'SubscriptionModel',
    useType: 'OnDemandStream',
    start: '2026-09-01',
    end: '2026-09-30',
    territory: 'FR',
    currency: 'USD',
    exchangeRate: '1',
    totals,
  });
  for (const l of lines) await writer.line({ ...l, summaryId: id });
  await writer.end();
  return Buffer.concat(chunks).toString('utf8');
}

describe('DDEX DSR statements', () => {
  it('the same report regenerated (new bytes, same sender and MessageId) is refused and changes nothing', async () => {
    const a = await artistWithRelease();
    const messageId = `msg-${randomUUID()}`;
    const first = statementAccepted.parse(
      await (await send('dsr', 'DSR_first.tsv', await dsr(a.isrc, messageId, '2026-11-12T09:30:00Z'))).json(),
    );
    expect((await finished(first.id)).state).toBe('done');
    const total = (
      (await (await platform.api('/api/dashboard', { token: a.token })).json()) as Record<string, unknown>
    ).totalEarningsUsd;
    expect(total).toBe('0.603');
    const again = statementAccepted.parse(
      await (
        await send('dsr', 'DSR_regenerated.tsv', await dsr(a.isrc, messageId, '2026-11-13T08:00:00Z'))
      ).json(),
    );
    expect(again.duplicate).toBe(false);
    const refused = await finished(again.id);
    expect(refused.state).toBe('refused');
    expect(refused.refusal).toContain(messageId);
    const after = (
      (await (await platform.api('/api/dashboard', { token: a.token })).json()) as Record<string, unknown>
    ).totalEarningsUsd;
    expect(after).toBe('0.603');
  });

  it('thousands of lines no recording carries all wait, opened a batch at a time; refused, none is left', async () => {
    // More lines than the store opens or discards at once (BATCH in store/unmatched.ts).
    const unknown = Array.from({ length: 4500 }, (_, i) => `QZZZZ99${String(i).padStart(5, '0')}`);
    const documents = await platform.ports.documents('royalties');
    const linesOf = (importId: string) =>
      documents.collection<{ _id: string; status: string }>('unmatched_lines').find({ importId });

    const queue = async () =>
      unmatchedList.parse(
        await (await platform.api('/api/admin/statements/unmatched', { token: admin })).json(),
      );
    const before = await queue();

    const whole = await dsr(unknown, `msg-${randomUUID()}`, '2026-11-12T09:30:00Z');
    const done = await finished(
      statementAccepted.parse(await (await send('dsr', 'DSR_unknown.tsv', whole)).json()).id,
    );
    expect(done.state).toBe('done');
    expect(done.lines).toEqual({ total: 4500, imported: 0, unmatched: 4500, refused: 0 });
    expect(done.reconciliation.balanced).toBe(true);
    const waiting = await linesOf(done.id);
    expect(waiting).toHaveLength(4500);
    expect(waiting.every((l) => l.status === 'open')).toBe(true);

    // The queue's summary: every line counted, to the nano-dollar; the list capped to the biggest groups.
    const after = await queue();
    expect(after.open).toBe(before.open + 4500);
    expect(nano(after.amount) - nano(before.amount)).toBe(nano(done.reconciliation.unmatched));
    expect(after.counts!.open).toBe(before.counts!.open + 4500);
    const open = after.groups.filter((g) => g.status === 'open');
    expect(open).toHaveLength(500);
    const amounts = open.map((g) => nano(g.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => (b > a ? 1 : b < a ? -1 : 0)));
    // The biggest: the file's last line (its usages grow with the line number).
    expect(open[0]).toMatchObject({ identifier: unknown.at(-1), lines: 1, status: 'open' });

    const rows = (await dsr(unknown, `msg-${randomUUID()}`, '2026-11-12T09:30:00Z')).trimEnd().split('\n');
    const cut = [...rows.slice(0, -2), rows.at(-1)].join('\n');
    const refused = await finished(
      statementAccepted.parse(await (await send('dsr', 'DSR_unknown_cut.tsv', cut)).json()).id,
    );
    expect(refused.state).toBe('refused');
    expect(await linesOf(refused.id)).toEqual([]);
    // Staged while it was read, gone with it: the queue is as it was.
    expect(await queue()).toEqual(after);

    // Marked not ours over HTTP: its line moves out of the open groups.
    const last = unknown.at(-1)!;
    const res = await platform.api('/api/admin/statements/unmatched/resolve', {
      method: 'POST',
      token: admin,
      json: { action: 'not_ours', identifier: last },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ lines: 1 });
    const resolved = await queue();
    expect(resolved.open).toBe(after.open - 1);
    expect(resolved.counts).toEqual({
      ...after.counts!,
      open: after.counts!.open - 1,
      not_ours: after.counts!.not_ours + 1,
    });
    expect(resolved.groups.find((g) => g.identifier === last)).toMatchObject({ status: 'not_ours' });
    const again = await platform.api('/api/admin/statements/unmatched/resolve', {
      method: 'POST',
      token: admin,
      json: { action: 'not_ours', identifier: last },
    });
    expect(again.status).toBe(404);
  });

  it('a file cut short (its footer counts more lines than arrived) is refused whole', async () => {
    const a = await artistWithRelease();
    const text = await dsr(a.isrc, `msg-${randomUUID()}`, '2026-11-12T09:30:00Z');
    const rows = text.trimEnd().split('\n');
    const cut = [...rows.slice(0, -2), rows.at(-1)].join('\n');
    const { id } = statementAccepted.parse(await (await send('dsr', 'DSR_cut.tsv', cut)).json());
    const imp = await finished(id);
    expect(imp.state).toBe('refused');
    expect(imp.refusal).not.toMatch(/undefined|Error|stack/);
    const dash = (await (await platform.api('/api/dashboard', { token: a.token })).json()) as Record<
      string,
      unknown
    >;
    expect(dash.totalEarningsUsd).toBe('0.00');
  });
});
