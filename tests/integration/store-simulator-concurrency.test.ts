// Issue 21 §4.3: twelve admins' (or one test's) concurrent updates of one simulated store's behaviour all
// succeed, and the behaviour file ends as one whole update (never a torn or lost write, no temp file left).
// The temp file used to be named by pid and millisecond, so two writes in one millisecond shared it and the
// second rename failed with ENOENT: 8–10 of 12 concurrent calls answered 500.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ReleasePlatform, startReleasePlatform } from './releases.fixtures';

let omni: ReleasePlatform;
let adminToken: string;

beforeAll(async () => {
  omni = await startReleasePlatform();
  adminToken = await omni.token(randomUUID(), ['artist', 'admin']);
});
afterAll(() => omni?.close());

it('answers 12 concurrent updates of one store with 204 each, and keeps one whole behaviour', async () => {
  const reasons = Array.from({ length: 12 }, (_, i) => `Store outage number ${i + 1}.`);
  const statuses = await Promise.all(
    reasons.map(async (reason) => {
      const res = await omni.api('/api/admin/store-simulator/spotify', {
        method: 'POST',
        token: adminToken,
        json: { mode: 'fail', times: 2, reason },
      });
      return res.status;
    }),
  );
  expect(statuses).toEqual(Array(12).fill(204));

  const stateDir = join(omni.dataDir, 'delivery', 'stores', 'spotify', '.simulator');
  const saved = JSON.parse(readFileSync(join(stateDir, 'behaviour.json'), 'utf8')) as {
    mode: string;
    times: number;
    reason: string;
  };
  expect(saved.mode).toBe('fail');
  expect(saved.times).toBe(2);
  expect(reasons).toContain(saved.reason);
  expect(readdirSync(stateDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
});

it('keeps the last of several rounds of concurrent updates (none lost behind an earlier one)', async () => {
  for (let round = 0; round < 3; round++) {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        omni.api('/api/admin/store-simulator/tidal', {
          method: 'POST',
          token: adminToken,
          json: { mode: i % 2 ? 'reject' : 'fail', times: i + 1, reason: `round ${round} call ${i}` },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(204));
  }
  // One more update after the rounds settled: the file must say exactly this one.
  const res = await omni.api('/api/admin/store-simulator/tidal', {
    method: 'POST',
    token: adminToken,
    json: { mode: 'accept' },
  });
  expect(res.status).toBe(204);
  const stateDir = join(omni.dataDir, 'delivery', 'stores', 'tidal', '.simulator');
  expect(JSON.parse(readFileSync(join(stateDir, 'behaviour.json'), 'utf8'))).toMatchObject({
    mode: 'accept',
    times: 0,
    reason: '',
  });
  expect(readdirSync(stateDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
});
