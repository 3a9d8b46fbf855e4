// The scan on a catalogue with planted gaps, every release created through the real release API: each
// planted gap is found once, on its recording, with a link back to its release; clean recordings are not
// flagged; a registry snapshot in DATA_DIR/finder/registries is what "registered" is checked against; a
// value appears only where the artist supplied plays, and follows them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLEAN_CREDITS, CLEAN_LEGAL } from '../../services/finder/test/support/recordings';
import { account, type ScanAnswer, startFinderPlatform, subscribeToFinder } from './finder.fixtures';
import { type ReleasePlatform, releaseBody } from './releases.fixtures';

let platform: ReleasePlatform;
beforeAll(async () => {
  platform = await startFinderPlatform();
});
afterAll(async () => {
  await platform?.close();
});

/** A release a society can pay on: valid codes, writers with shares and IPIs, performers with roles, ℗ line. */
function cleanBody(userId: string, title: string, change: { credits?: object; legal?: object } = {}) {
  return releaseBody(userId, {
    artistName: 'Ana Diaz',
    releaseTitle: title,
    trackTitle: title,
    credits: { ...CLEAN_CREDITS, ...change.credits },
    legal: { ...CLEAN_LEGAL, ...change.legal },
  });
}

it('finds each planted gap once, flags no clean recording, and values only what has plays', async () => {
  const { userId, token } = await account(platform);
  await subscribeToFinder(platform, userId);
  const create = async (body: unknown) => {
    const res = await platform.api('/api/releases', { method: 'POST', token, json: body });
    expect(res.status).toBe(201);
    const { release } = (await res.json()) as { release: { id: string; tracks: Array<{ isrc: string }> } };
    return { id: release.id, isrc: release.tracks[0]!.isrc };
  };
  const clean = [];
  for (const title of ['Morning Light', 'Harbour Song', 'Quiet Roads'])
    clean.push(await create(cleanBody(userId, title)));
  const noLineUp = await create(cleanBody(userId, 'No Band', { credits: { musicians: [] } }));
  const badIswc = await create(cleanBody(userId, 'Bad Code', { legal: { iswc: 'T-034.524.680-9' } }));
  const noYear = await create(
    cleanBody(userId, 'No Year', { legal: { copyrightLine: '℗ Northern Lights Records' } }),
  );
  const unregistered = await create(cleanBody(userId, 'Never Filed'));

  // SoundExchange's snapshot holds every recording but the last one.
  const folder = join(platform.dataDir, 'finder', 'registries');
  mkdirSync(folder, { recursive: true });
  const registered = [...clean, noLineUp, badIswc, noYear];
  writeFileSync(
    join(folder, 'soundexchange-2026-10-01.csv'),
    `isrc,title,owner,performers\n${registered.map((r) => `${r.isrc},,Northern Lights Records,Ana Diaz;Cy Park`).join('\n')}\n`,
  );

  // Plays for the recording without a line-up only.
  const plays = await fetch(`${platform.url}/api/finder/plays`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: `isrc,territory,plays,year,service_type\n${noLineUp.isrc},US,100000,2025,non_subscription\n`,
  });
  expect(plays.status).toBe(200);

  const scan = async () => {
    const res = await platform.api('/api/finder/scans', {
      method: 'POST',
      token,
      json: { scan_scope: 'global' },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as ScanAnswer).data.result!;
  };
  const result = await scan();
  const findings = result.findings;
  const byIsrc = new Map(findings.map((f) => [f.isrc, f]));
  expect(result.scanned).toBe(7);
  // One finding per flagged recording, and only the planted ones.
  expect(findings.map((f) => f.isrc).sort()).toEqual(
    [noLineUp.isrc, badIswc.isrc, noYear.isrc, unregistered.isrc].sort(),
  );
  expect(result.flagged).toBe(4);
  const only = (isrc: string) => byIsrc.get(isrc)!;
  expect(only(noLineUp.isrc).metadata_gaps).toEqual(['No performer line-up']);
  expect(only(badIswc.isrc).metadata_gaps).toEqual([expect.stringMatching(/^Malformed ISWC/)]);
  expect(only(noYear.isrc).metadata_gaps).toEqual(['℗ line has no year']);
  expect(only(unregistered.isrc).metadata_gaps).toEqual([]);
  expect(only(unregistered.isrc).missing_registrations).toEqual([expect.stringMatching(/SoundExchange/)]);
  for (const r of [noLineUp, badIswc, noYear])
    expect(only(r.isrc).missing_registrations.filter((m) => /SoundExchange/.test(m))).toEqual([]);
  for (const r of [noLineUp, badIswc, noYear, unregistered]) {
    expect(only(r.isrc).release_id).toBe(r.id);
    expect(only(r.isrc).recommended_actions.length).toBeGreaterThan(0);
  }
  expect(result.checked_against).toEqual(
    expect.arrayContaining([{ registry: 'SoundExchange', snapshot_date: '2026-10-01', live: false }]),
  );

  // A value only where plays were supplied; it follows them.
  const valued = only(noLineUp.isrc);
  expect(valued.value_at_risk_usd).toBeGreaterThan(0);
  expect(valued.value_basis?.plays).toBe(100000);
  for (const r of [badIswc, noYear, unregistered]) expect(only(r.isrc).value_at_risk_usd).toBeNull();
  expect(result.estimated_value_at_risk_usd).toBeCloseTo(valued.value_at_risk_usd!, 2);

  await fetch(`${platform.url}/api/finder/plays`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: `isrc,territory,plays,year,service_type\n${noLineUp.isrc},US,200000,2025,non_subscription\n`,
  });
  const doubled = (await scan()).findings.find((f) => f.isrc === noLineUp.isrc)!;
  // Rounded to cents each time: twice the plays is twice the value within a cent.
  expect(Math.abs(doubled.value_at_risk_usd! - valued.value_at_risk_usd! * 2)).toBeLessThanOrEqual(0.011);

  // The export carries every finding, each with its release page.
  const latest = (await (await platform.api('/api/finder/scans/latest', { token })).json()) as {
    job: { id: string };
  };
  const csv = await (await platform.api(`/api/finder/scans/${latest.job.id}/export.csv`, { token })).text();
  const lines = csv.trimEnd().split('\r\n');
  expect(lines).toHaveLength(5);
  for (const r of [noLineUp, badIswc, noYear, unregistered]) {
    const line = lines.find((l) => l.includes(r.isrc));
    expect(line).toContain(`${platform.config.publicUrl}/release/${r.id}`);
  }
});
