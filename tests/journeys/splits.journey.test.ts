// Splits through Omni's real HTTP surface (`npm start` as a child process on a fresh data folder): an artist
// creates a release and gives a third of it to a collaborator who has no Omni account; the collaborator
// signs up with another address and accepts from the invitation link; a stranger sees no splits, the
// collaborator sees only their own share; the admin imports a statement for this month's sales and the two
// payees' earnings add up to the imported amount to the nano-dollar, split by largest remainder; /app's
// Collaborators card counts the invitation. Amounts are worked out here in bigint nano-dollars.
import { dashboardSchema, myEarnings, releaseSplits, splitsChanged, statementImport } from '@omni/proto/api';
import type { ApiSession } from '../support/session';
import { verifiedSession } from '../support/session';
import { call, createRelease, login } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { newEmail, PASSWORD } from './support/people';

const NANO = 1_000_000_000n;
let omni: Omni;
let admin: ApiSession;

beforeAll(async () => {
  omni = await startOmni({ name: 'splits' });
  admin = await login(omni.url, omni.admin.email, omni.admin.password);
}, 420_000);

afterAll(async () => {
  await omni?.stop();
}, 120_000);

function nano(amount: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,9}))?$/.exec(amount);
  if (!m) throw new Error(`"${amount}" is not a decimal amount`);
  const value = BigInt(m[2] as string) * NANO + BigInt((m[3] ?? '').padEnd(9, '0'));
  return m[1] ? -value : value;
}

async function json(res: Response, what: string, status = 200): Promise<unknown> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${text}`);
  return JSON.parse(text);
}

const put = (path: string, token: string, body: unknown) =>
  call(omni.url, path, token, { method: 'PUT', body: JSON.stringify(body) });
const post = (path: string, token: string, body?: unknown) =>
  call(omni.url, path, token, {
    method: 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

it('an artist splits a release with a collaborator who signs up with another address; payees’ earnings add up to the statement to the nano', async () => {
  try {
    const artistEmail = newEmail('splits-owner');
    const artist = await verifiedSession(omni.url, artistEmail, PASSWORD);
    const release = await createRelease(omni.url, artist, { title: 'Split Road', stores: ['spotify'] });
    const splitsPath = `/api/releases/${release.id}/splits`;

    // Shares that do not add up are refused in words.
    const wrong = await put(splitsPath, artist.accessToken, {
      shares: [
        { email: artistEmail, percent: '50' },
        { email: 'someone@example.test', percent: '45.5' },
      ],
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
      'Shares must add up to exactly 100%; these add up to 95.5%.',
    );

    // A third to an address no Omni account has; the artist keeps the remainder.
    const invited = newEmail('splits-invited');
    const set = splitsChanged.parse(
      await json(
        await put(splitsPath, artist.accessToken, { shares: [{ email: invited, percent: '33.3333' }] }),
        'PUT splits',
      ),
    );
    expect(set.tables[0]!.shares.map((s) => [s.email, s.percent, s.status])).toEqual([
      [artistEmail.toLowerCase(), '66.6667', 'owner'],
      [invited.toLowerCase(), '33.3333', 'pending'],
    ]);
    const token = new URL(set.links[0]!.url).searchParams.get('token')!;

    // The link shows the pending share to whoever holds it; accepting needs an account — any address.
    const shown = await json(
      await call(omni.url, `/api/splits/invitations/${token}`, undefined),
      'GET invitation',
    );
    expect(shown).toEqual(
      expect.objectContaining({ status: 'pending', releaseTitle: 'Split Road', held: '0.00' }),
    );
    expect((await post(`/api/splits/invitations/${token}/accept`, '')).status).toBe(401);
    const collaborator = await verifiedSession(omni.url, newEmail('splits-other-address'), PASSWORD);
    await json(await post(`/api/splits/invitations/${token}/accept`, collaborator.accessToken), 'accept');

    // A stranger sees no release; the collaborator sees only their share; the owner everything.
    const stranger = await verifiedSession(omni.url, newEmail('splits-stranger'), PASSWORD);
    expect((await call(omni.url, splitsPath, stranger.accessToken)).status).toBe(404);
    expect((await put(splitsPath, stranger.accessToken, { shares: [] })).status).toBe(404);
    const theirs = releaseSplits.parse(
      await json(await call(omni.url, splitsPath, collaborator.accessToken), 'GET'),
    );
    expect(theirs.role).toBe('collaborator');
    expect(theirs.tables.flatMap((t) => t.shares.map((s) => s.percent))).toEqual(
      theirs.tables.map(() => '33.3333'),
    );
    expect(JSON.stringify(theirs)).not.toContain(artistEmail.toLowerCase());

    // The admin imports this month's sales of the recording.
    const month = new Date().toISOString().slice(0, 7);
    const amounts = ['4.123456789', '1.627500003', '0.000000001'];
    const csv = [
      'sale_start,sale_end,reported_at,store,service_tier,territory,usage_type,isrc,upc,title,artist,quantity,amount,currency,amount_usd,fx_rate,fx_date,adjustment_type',
      ...amounts.map((a, i) =>
        [
          `${month}-01`,
          `${month}-01`,
          `${month}-02`,
          ['Spotify', 'Deezer', 'Tidal'][i],
          '',
          'US',
          'stream',
          release.isrc,
          '',
          'Split Road',
          'Journey Artist',
          100,
          a,
          'USD',
          a,
          '1',
          '',
          '',
        ].join(','),
      ),
    ].join('\n');
    const accepted = (await json(
      await call(omni.url, '/api/admin/statements?source=omni', admin.accessToken, {
        method: 'POST',
        body: `${csv}\n`,
        headers: { 'content-type': 'application/octet-stream', 'x-file-name': `splits-${Date.now()}.csv` },
      }),
      'POST statement',
      202,
    )) as { id: string };
    await eventually(
      async () => {
        const imp = statementImport.parse(
          await json(
            await call(omni.url, `/api/admin/statements/${accepted.id}`, admin.accessToken),
            'import',
          ),
        );
        return imp.state === 'done' ? imp : undefined;
      },
      'the statement to be imported',
      120_000,
      500,
    );

    // Each line split by largest remainder; the two balances add up to the file.
    const total = amounts.reduce((t, a) => t + nano(a), 0n);
    const earnings = async (s: ApiSession) =>
      myEarnings.parse(
        await json(await call(omni.url, '/api/me/earnings', s.accessToken), 'GET /api/me/earnings'),
      );
    const [ownerEarned, theirEarned] = await eventually(
      async () => {
        const [o, c] = [await earnings(artist), await earnings(collaborator)];
        return nano(o.balance) + nano(c.balance) === total ? [o, c] : undefined;
      },
      'the payees’ earnings to add up to the statement',
      60_000,
      500,
    );
    const third = (a: bigint) => {
      // 33.3333 % of a, floor, plus the one leftover unit when its fraction is the larger.
      const p = a * 333_333n;
      const floor = p / 1_000_000n;
      const ownerRem = (a * 666_667n) % 1_000_000n;
      return p % 1_000_000n > ownerRem ? floor + 1n : floor;
    };
    expect(nano(theirEarned!.balance)).toBe(amounts.reduce((t, a) => t + third(nano(a)), 0n));
    expect(theirEarned!.statements).toEqual([expect.objectContaining({ saleMonth: month })]);
    expect(nano(ownerEarned!.balance)).toBe(total - nano(theirEarned!.balance));
    // The stranger has nothing, and sees nobody else's.
    expect(await earnings(stranger)).toEqual(
      expect.objectContaining({ balance: '0.00', held: [], statements: [] }),
    );

    // /app's Collaborators card: the one address the artist invited.
    const dash = dashboardSchema.parse(
      await json(await call(omni.url, '/api/dashboard', artist.accessToken), 'dashboard'),
    );
    expect(dash.collaborators).toBe(1);
  } catch (err) {
    omni.explain(err);
  }
}, 400_000);
