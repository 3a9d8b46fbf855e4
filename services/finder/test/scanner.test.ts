// createScanner end to end over snapshot registries and known plays: what each society is missing, the
// value per finding and in total, the order of findings, and what was checked against what.

import type { PlayCount } from '../src/domain';
import { createScanner } from '../src/domain';
import { registryKeys } from '../src/domain/registry-keys';
import { parseSnapshot } from '../src/providers/registries/snapshot';
import { cleanRecording } from './support/recordings';

async function registries() {
  return [
    await parseSnapshot(
      'soundexchange',
      '2026-10-01',
      [
        'isrc,owner,performers',
        'USS1Z2600001,Northern Lights Records,Ana Diaz', // complete
        'USS1Z2600002,,Ana Diaz', // no owner
        'USS1Z2600003,Northern Lights Records,Someone Else', // featured artist missing
        'USS1Z2600004,Northern Lights Records,Ana Diaz',
      ].join('\n'),
      registryKeys,
    ),
    await parseSnapshot(
      'ppl',
      '2026-09-15',
      [
        'isrc,owner,performers',
        'USS1Z2600001,Northern Lights Records,Ana Diaz;Cy Park',
        'USS1Z2600002,Northern Lights Records,Ana Diaz;Cy Park',
        'USS1Z2600003,Northern Lights Records,Ana Diaz;Cy Park',
        'USS1Z2600004,Northern Lights Records,Ana Diaz', // Cy Park missing
      ].join('\n'),
      registryKeys,
    ),
    await parseSnapshot(
      'impel',
      '2026-08-01',
      'iswc,title,writers\nT-034.524.680-1,Any,Ana Diaz;Cy Park\n',
      registryKeys,
    ),
  ];
}

const plays: Record<string, PlayCount[]> = {
  USS1Z2600002: [{ isrc: 'USS1Z2600002', territory: 'US', plays: 20_000, year: 2025 }],
  USS1Z2600003: [{ isrc: 'USS1Z2600003', territory: 'US', plays: 10_000, year: 2025 }],
  USS1Z2600004: [{ isrc: 'USS1Z2600004', territory: 'GB', plays: 10_000, year: 2025 }],
};

it('reports what each registry is missing, priced, sorted by value then title', async () => {
  const scanner = createScanner({
    registries: await registries(),
    plays: async (isrc) => plays[isrc] ?? [],
    now: new Date('2026-11-01T00:00:00Z'),
  });
  // Titles chosen so that alphabetical order differs from value order.
  const titles = ['Complete', 'Without owner', 'Unfeatured', 'Short line-up', 'Anonymous'];
  for (const [i, title] of titles.entries())
    await scanner.add(cleanRecording({ title, isrc: `USS1Z26${String(i + 1).padStart(5, '0')}` }));
  const result = await scanner.finish();

  expect(result).toMatchObject({ scanned: 5, flagged: 4 });
  // 20,000 × $0.0025 × 50% × 95% = $23.75; 10,000 × $0.0025 × 45% × 95% = $10.6875 → $10.69;
  // 10,000 × $0.0025 × 50% × 91% = $11.375 → $11.38 (GB, PPL performers); Anonymous has no plays → null.
  expect(
    result.findings.map((f) => [f.recording_title, f.missing_registrations, f.value_at_risk_usd]),
  ).toEqual([
    ['Without owner', ['SoundExchange: no rights owner on the registration'], 23.75],
    ['Short line-up', ['PPL: line-up incomplete (missing Cy Park)'], 11.38],
    ['Unfeatured', ['SoundExchange: featured artist Ana Diaz not on the registration'], 10.69],
    ['Anonymous', ['SoundExchange: recording not registered', 'PPL: recording not registered'], null],
  ]);
  expect(result.estimated_value_at_risk_usd).toBe(45.82);
  expect(result.findings.every((f) => f.metadata_gaps.length === 0)).toBe(true);
  expect(result.findings[0]?.evidence).toEqual([
    "SoundExchange's registration of ISRC USS1Z2600002 names no rights owner (checked against the SoundExchange snapshot of 2026-10-01, not live).",
  ]);
  expect(result.checked_against).toEqual([
    { registry: 'SoundExchange', snapshot_date: '2026-10-01', live: false },
    { registry: 'PPL', snapshot_date: '2026-09-15', live: false },
    { registry: 'IMPEL', snapshot_date: '2026-08-01', live: false },
  ]);
  expect(result.disclaimer).toMatch(/^Estimates only\./);
});

it('finds a work missing from the publishing registry, and its writers', async () => {
  const impel = await parseSnapshot(
    'impel',
    '2026-08-01',
    'iswc,title,writers\nT-034.524.680-1,Any,Ana Diaz\n',
    registryKeys,
  );
  const scanner = createScanner({ registries: [impel], plays: () => [], now: new Date('2026-11-01') });
  await scanner.add(cleanRecording());
  await scanner.add(cleanRecording({ legal: { iswc: 'T-101.914.232-4' } } as never));
  const [missingWriter, unregistered] = (await scanner.finish()).findings.map((f) => f.missing_registrations);
  expect([missingWriter, unregistered].sort()).toEqual([
    ['IMPEL: work not registered'],
    ['IMPEL: writers missing from the work (Cy Park)'],
  ]);
});
