// The Missing Money Finder through HTTP on a started platform: who may scan (the server asks billing), the
// scan as a job (progress, one at a time per account, latest, export), and catalog's paged listing it reads.
import { randomUUID } from 'node:crypto';
import { createGrpcClient } from '@omni/platform';
import { catalog } from '@omni/proto';
import { FINDER_MESSAGES, registriesNotChecked } from '@omni/proto/api';
import { PlaysRepository } from '../../services/finder/src/store/plays';
import {
  account,
  gatedCatalog,
  type ScanAnswer,
  startFinderPlatform,
  subscribeToFinder,
} from './finder.fixtures';
import { type ReleasePlatform, releaseBody, waitUntil } from './releases.fixtures';

let platform: ReleasePlatform;
const catalogGate = gatedCatalog();

beforeAll(async () => {
  platform = await startFinderPlatform({ modules: { catalog: catalogGate.module } });
});
afterAll(async () => {
  catalogGate.gate.open();
  await platform?.close();
});

async function release(token: string, userId: string, extra: Record<string, unknown> = {}) {
  const res = await platform.api('/api/releases', {
    method: 'POST',
    token,
    json: releaseBody(userId, extra),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { release: { id: string; tracks: Array<{ isrc: string }> } };
}

const scan = (token: string, body: unknown = { scan_scope: 'global' }) =>
  platform.api('/api/finder/scans', { method: 'POST', token, json: body });

const jobsOf = async (userId: string) =>
  (await platform.ports.documents('finder')).collection('omni_finder_jobs').count({ user_id: userId });

describe('who may scan', () => {
  it('answers 401 to a caller who is not signed in, on every Finder route', async () => {
    for (const [method, path] of [
      ['POST', '/api/finder/scans'],
      ['GET', '/api/finder/scans/latest'],
      ['GET', `/api/finder/scans/${randomUUID()}/export.csv`],
      ['POST', '/api/finder/plays'],
    ] as const) {
      const res = await platform.api(path, { method });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
  });

  it('refuses a scan to an account without the Finder subscription, on the server, and starts no job', async () => {
    const { userId, token } = await account(platform);
    await release(token, userId);
    const res = await scan(token);
    expect(res.status).toBe(403);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error).toEqual({ code: 'subscription_required', message: FINDER_MESSAGES.subscriptionRequired });
    expect(await jobsOf(userId)).toBe(0);
    const latest = await platform.api('/api/finder/scans/latest', { token });
    expect(await latest.json()).toEqual({ job: null });
  });

  it('refuses bad input with a 400 that says what is wrong', async () => {
    const { userId, token } = await account(platform);
    await subscribeToFinder(platform, userId);
    for (const [body, message] of [
      [{ scan_scope: 'everything' }, /scan_scope must be 'global' or 'isrcs'/],
      [{ scan_scope: 'isrcs', isrcs: 'QZQDU2600001' }, /isrcs must be a list/],
      [{ scan_scope: 'isrcs', isrcs: [] }, /at least one ISRC/],
      [{ scan_scope: 'global', extra: 1 }, /./],
    ] as const) {
      const res = await scan(token, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(await jobsOf(userId)).toBe(0);
  });
});

describe('a subscriber scans their catalogue', () => {
  it('reads every track, completes the job with progress, and shows it as the latest', async () => {
    const { userId, token } = await account(platform);
    await subscribeToFinder(platform, userId);
    for (let i = 0; i < 3; i++) await release(token, userId, { releaseTitle: `R${i}`, trackTitle: `T${i}` });
    const announced: Array<{ key: string; data: Record<string, unknown> }> = [];
    const bus = await platform.ports.events();
    const subscription = await bus.subscribe({
      groupId: `finder-test-${randomUUID()}`,
      topics: ['scan.completed'],
      handler: async (message) => {
        const envelope = JSON.parse(message.value);
        if (envelope.data.accountId === userId) announced.push(envelope);
      },
    });
    const res = await scan(token);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as ScanAnswer;
    expect(answer.ok).toBe(true);
    expect(answer.data.job).toMatchObject({
      status: 'completed',
      progress: { done: 3, total: 3 },
      error: '',
    });
    // No registry snapshot is held here: the result says no registration was checked, once, not per finding.
    expect(answer.data.result).toMatchObject({
      scanned: 3,
      disclaimer: FINDER_MESSAGES.disclaimerNoRegistries,
      checked_against: [],
    });
    expect(registriesNotChecked(answer.data.result!)).toEqual(['SoundExchange', 'PPL', 'IMPEL']);
    expect(
      answer.data.result!.findings.flatMap((f) => f.evidence).filter((e) => /not checked/i.test(e)),
    ).toEqual([]);
    expect(answer.data.job_id).toBe(answer.data.job.id);
    const latest = (await (await platform.api('/api/finder/scans/latest', { token })).json()) as {
      job: ScanAnswer['data']['job'] & { result: unknown };
    };
    expect(latest.job).toMatchObject({
      id: answer.data.job_id,
      status: 'completed',
      result: answer.data.result,
    });
    // scan.completed, once, from the outbox, with the totals.
    await waitUntil(async () => (announced.length > 0 ? true : undefined), 5000, 'scan.completed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await subscription.close();
    expect(announced).toEqual([
      expect.objectContaining({
        key: answer.data.job_id,
        data: expect.objectContaining({
          jobId: answer.data.job_id,
          scanned: 3,
          flagged: answer.data.result?.flagged,
        }),
      }),
    ]);
  });

  it('an isrcs scan reads only the named recordings', async () => {
    const { userId, token } = await account(platform);
    await subscribeToFinder(platform, userId);
    const a = await release(token, userId, { releaseTitle: 'A', trackTitle: 'A' });
    await release(token, userId, { releaseTitle: 'B', trackTitle: 'B' });
    const answer = (await (
      await scan(token, { scan_scope: 'isrcs', isrcs: [a.release.tracks[0]!.isrc.toLowerCase()] })
    ).json()) as ScanAnswer;
    expect(answer.data.result?.scanned).toBe(1);
    expect(answer.data.job.progress).toEqual({ done: 2, total: 2 });
  });

  it('runs one scan at a time: parallel starts while one runs all get that one job', async () => {
    const { userId, token } = await account(platform);
    await subscribeToFinder(platform, userId);
    await release(token, userId);
    catalogGate.gate.close();
    try {
      const starts = Array.from({ length: 5 }, () => scan(token));
      // While catalog holds the first page, the job is visible as running.
      const running = await waitUntil(async () => {
        const { job } = (await (await platform.api('/api/finder/scans/latest', { token })).json()) as {
          job: { id: string; status: string } | null;
        };
        return job?.status === 'running' ? job : undefined;
      });
      catalogGate.gate.open();
      const answers = await Promise.all(starts.map(async (r) => (await r).json() as Promise<ScanAnswer>));
      expect(new Set(answers.map((a) => a.data.job_id))).toEqual(new Set([running.id]));
      expect(answers.every((a) => a.data.job.status === 'completed')).toBe(true);
      expect(await jobsOf(userId)).toBe(1);
    } finally {
      catalogGate.gate.open();
    }
    // Once it has finished, the next start is a new scan.
    const again = (await (await scan(token)).json()) as ScanAnswer;
    expect(await jobsOf(userId)).toBe(2);
    expect(again.data.job.status).toBe('completed');
  });
});

describe('export', () => {
  it('answers a CSV attachment for the account own scan, 404 for another account or an unknown id', async () => {
    const { userId, token } = await account(platform);
    await subscribeToFinder(platform, userId);
    await release(token, userId);
    const { data } = (await (await scan(token)).json()) as ScanAnswer;
    const res = await platform.api(`/api/finder/scans/${data.job_id}/export.csv`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="?missing-money-finder-[\w-]+\.csv"?$/,
    );
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe(
      'Title,Artist,ISRC,Missing registrations,Metadata gaps,Recommended actions,Value at risk (USD),How the value was estimated,Release page',
    );
    const other = await account(platform);
    for (const [who, id] of [
      [other.token, data.job_id],
      [token, randomUUID()],
    ] as const) {
      const refused = await platform.api(`/api/finder/scans/${id}/export.csv`, { token: who });
      expect(refused.status).toBe(404);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('scan_not_found');
    }
    const bad = await platform.api('/api/finder/scans/..%2F..%2Fetc/export.csv', { token });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });
  it('quotes as RFC 4180 says and defuses cells a spreadsheet would run as formulas', async () => {
    const { userId, token } = await account(platform);
    await subscribeToFinder(platform, userId);
    // The fixture's release credits a musician without a role: flagged, so its title reaches the export.
    await release(token, userId, { trackTitle: '=SUM(1,2)', artistName: '@Crew "Live"' });
    const { data } = (await (await scan(token)).json()) as ScanAnswer;
    expect(data.result?.flagged).toBe(1);
    const csv = await (await platform.api(`/api/finder/scans/${data.job_id}/export.csv`, { token })).text();
    const row = csv.split('\r\n')[1]!;
    expect(row.startsWith(`"'=SUM(1,2)","'@Crew ""Live""",`)).toBe(true);
  });
});

describe('play counts', () => {
  const post = (token: string, body: string, type = 'text/csv') =>
    fetch(`${platform.url}/api/finder/plays`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body,
    });

  const subscriber = async () => {
    const { userId, token } = await account(platform);
    await subscribeToFinder(platform, userId);
    return { userId, token };
  };
  const storedRows = async (userId: string) =>
    new PlaysRepository(await platform.ports.documents('finder')).rows(userId);

  it('imports a CSV with a header, and replaces the previous import', async () => {
    const { userId, token } = await subscriber();
    const csv =
      'isrc,territory,plays,year,service_type\nQZQDU2600001,US,1000,2025,non_subscription\nQZ-QDU-26-00001,GB,20,,\nQZQDU2600002,US,5,2024,subscription\n';
    const res = await post(token, csv);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ rows: 3, recordings: 2 });
    const again = await post(token, 'plays,isrc,territory\n7,QZQDU2600009,DE\n');
    expect(await again.json()).toEqual({ rows: 1, recordings: 1 });
    expect(await storedRows(userId)).toEqual([{ isrc: 'QZQDU2600009', territory: 'DE', plays: 7 }]);
  });

  it('refuses a bad file with 400 naming each bad line, and keeps the previous import', async () => {
    const { userId, token } = await subscriber();
    await post(token, 'isrc,territory,plays\nQZQDU2600001,US,10\n');
    const cases: Array<[string, RegExp]> = [
      [
        'isrc,territory,plays\nQZQDU2600001,US,10\nNOT-AN-ISRC,US,3\nQZQDU2600002,USA,3\n',
        /2 lines have problems[\s\S]*Line 3: "NOT-AN-ISRC" is not an ISRC[\s\S]*Line 4: territory "USA"/,
      ],
      ['isrc,territory,plays\nQZQDU2600001,US,-4\n', /Line 2: plays must be a whole number/],
      ['isrc,plays\nQZQDU2600001,4\n', /Line 1: the header .*missing territory/],
      ['QZQDU2600001,US,10\n', /Line 1: the header/],
      ['isrc,territory,plays\n"QZQDU2600001,US,10\n', /Line 2: a quoted value is never closed/],
      ['isrc,territory,plays,year\nQZQDU2600001,US,10,2999\n', /Line 2: year must be/],
      ['isrc,territory,plays\n', /no rows/],
      ['', /empty/],
    ];
    for (const [csv, message] of cases) {
      const res = await post(token, csv);
      expect({ csv, status: res.status }).toEqual({ csv, status: 400 });
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(await storedRows(userId)).toEqual([{ isrc: 'QZQDU2600001', territory: 'US', plays: 10 }]);
  });

  it('answers 413 beyond the size limit and 415 for a body that is not CSV', async () => {
    const { token } = await subscriber();
    const big = `isrc,territory,plays\n${'QZQDU2600001,US,10\n'.repeat(300_000)}`;
    expect((await post(token, big)).status).toBe(413);
    expect((await post(token, '{"a":1}', 'application/json')).status).toBe(415);
  });
});

describe("catalog's ListCatalogueTracks", () => {
  it('pages through an owner catalogue in a stable order, every track once, with the total first', async () => {
    const { userId, token } = await account(platform);
    const made: string[] = [];
    for (let i = 0; i < 7; i++)
      made.push((await release(token, userId, { releaseTitle: `P${i}` })).release.id);
    await release(...(Object.values(await account(platform)).reverse() as [string, string]));
    const client = createGrpcClient(catalog.CatalogServiceService, platform.config.grpcAddress('catalog'));
    try {
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const page = await client.listCatalogueTracks({ ownerId: userId, cursor, limit: 3 });
        if (pages === 0) expect(page.total).toBe(7);
        else expect(page.total).toBe(0);
        expect(page.tracks.length).toBeLessThanOrEqual(3);
        for (const t of page.tracks) {
          expect(t.release?.ownerId).toBe(userId);
          expect(t.release?.tracks).toEqual([]);
          expect(t.release?.artist?.name).toBe('Nova Reyes');
          seen.push(t.release!.id);
        }
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(made);
      await expect(
        client.listCatalogueTracks({ ownerId: userId, cursor: 'garbage', limit: 3 }),
      ).rejects.toThrow(/cursor is not one this service gave out/);
    } finally {
      client.close();
    }
  });
});
