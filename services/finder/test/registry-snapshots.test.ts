// Registry snapshot files (providers/registries/snapshot/FORMAT.md): parsed into lookups, bad lines named,
// a missing file reported as not checked (never as not registered).

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FINDER_MESSAGES, registriesNotChecked } from '@omni/proto/api';
import { createScanner } from '../src/domain';
import { registryKeys } from '../src/domain/registry-keys';
import { loadSnapshots, parseSnapshot } from '../src/providers/registries/snapshot';
import { cleanRecording } from './support/recordings';

describe('recording snapshots', () => {
  it('indexes by canonical ISRC with owner and performers, quoted fields included', async () => {
    const connector = await parseSnapshot(
      'soundexchange',
      '2026-10-01',
      'ISRC,Title,Owner,Performers\r\nus-s1z-24-00001,"Song, live","Lights, Inc.",Ana Diaz;Cy Park\n\nGBAYE6900531,Other,,\n',
      registryKeys,
    );
    expect(connector).toMatchObject({
      id: 'soundexchange',
      kind: 'recording',
      snapshotDate: '2026-10-01',
      live: false,
    });
    expect(connector.lookupRecording('USS1Z2400001')).toEqual({
      registered: true,
      owner: 'Lights, Inc.',
      performers: ['Ana Diaz', 'Cy Park'],
    });
    expect(connector.lookupRecording('GBAYE6900531')).toEqual({
      registered: true,
      owner: '',
      performers: [],
    });
    expect(connector.lookupRecording('USS1Z2400002')).toEqual({ registered: false });
  });

  it('names the file and line of a bad ISRC, and a missing column', async () => {
    await expect(
      parseSnapshot('ppl', '2026-09-30', 'isrc,owner\nUSS1Z2400001,A\n\nUS-XX,B\n', registryKeys),
    ).rejects.toThrow(
      'ppl-2026-09-30.csv line 4: "US-XX" is not a valid ISRC (An ISRC has 12 characters; "US-XX" has 4.)',
    );
    await expect(parseSnapshot('ppl', '2026-09-30', 'code,owner\nX,Y\n', registryKeys)).rejects.toThrow(
      'ppl-2026-09-30.csv line 1: the header has no "isrc" column.',
    );
    await expect(
      parseSnapshot('ppl', '2026-09-30', 'isrc,owner\nUSS1Z2400001,A,extra\n', registryKeys),
    ).rejects.toThrow(/ppl-2026-09-30\.csv line 2/);
  });
});

describe('work snapshots', () => {
  it('finds a work by ISWC, or by title and a writer in common', async () => {
    const connector = await parseSnapshot(
      'impel',
      '2026-10-01',
      'iswc,title,writers\nT-034.524.680-1,Song number 1,Ana Diaz;Cy Park\n,Untitled Blues,Bo Lee\n',
      registryKeys,
    );
    expect(connector.kind).toBe('work');
    expect(connector.lookupWork({ iswc: 'T0345246801', title: 'x', writers: [] })).toEqual({
      registered: true,
      writers: ['Ana Diaz', 'Cy Park'],
    });
    expect(connector.lookupWork({ title: 'untitled blues', writers: ['BO LEE'] }).registered).toBe(true);
    expect(connector.lookupWork({ title: 'Untitled Blues', writers: ['Someone Else'] }).registered).toBe(
      false,
    );
    await expect(
      parseSnapshot('impel', '2026-10-01', 'iswc,title\nT-034.524.680-2,A\n', registryKeys),
    ).rejects.toThrow(
      'impel-2026-10-01.csv line 2: "T-034.524.680-2" is not a valid ISWC (The last character of this ISWC is its check digit: it should be 1, not 2.)',
    );
  });
});

describe('a snapshot folder', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'finder-registries-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('uses the newest file per registry; a registry without one is not checked, not "not registered"', async () => {
    await writeFile(
      join(folder, 'soundexchange-2026-01-01.csv'),
      'isrc,owner,performers\nUSS1Z2400001,Old,Ana Diaz\n',
    );
    await writeFile(join(folder, 'soundexchange-2026-10-01.csv'), 'isrc,owner,performers\n');
    await writeFile(join(folder, 'notes.txt'), 'ignored');
    const connectors = await loadSnapshots(folder, registryKeys);
    expect(connectors.map((c) => [c.id, c.snapshotDate])).toEqual([['soundexchange', '2026-10-01']]);
    expect(await loadSnapshots(join(folder, 'absent'), registryKeys)).toEqual([]);

    const recording = cleanRecording();
    const scanner = createScanner({ registries: connectors, plays: () => [], now: new Date('2026-11-01') });
    await scanner.add(recording);
    const result = await scanner.finish();
    expect(result.checked_against).toEqual([
      { registry: 'SoundExchange', snapshot_date: '2026-10-01', live: false },
    ]);
    const [finding] = result.findings;
    expect(finding?.missing_registrations).toEqual(['SoundExchange: recording not registered']);
    expect(finding?.evidence).toContain(
      `ISRC ${recording.isrc} is not in SoundExchange's registrations (checked against the SoundExchange snapshot of 2026-10-01, not live).`,
    );
    // The registries not checked are said once, for the whole result, never per finding.
    expect(registriesNotChecked(result)).toEqual(['PPL', 'IMPEL']);
    expect(finding?.evidence.join(' ')).not.toMatch(/PPL|IMPEL/);
    expect(finding?.missing_registrations.join(' ')).not.toMatch(/PPL|IMPEL/);
    expect(result.disclaimer).toBe(FINDER_MESSAGES.disclaimer);
  });

  it('a scan with no registry to ask says so in its disclaimer and checks none', async () => {
    const scanner = createScanner({ registries: [], plays: () => [], now: new Date('2026-11-01') });
    await scanner.add(cleanRecording());
    const result = await scanner.finish();
    expect(result.checked_against).toEqual([]);
    expect(registriesNotChecked(result)).toEqual(['SoundExchange', 'PPL', 'IMPEL']);
    expect(result.disclaimer).toBe(FINDER_MESSAGES.disclaimerNoRegistries);
    expect(result.disclaimer).not.toMatch(/were checked/);
  });
});
