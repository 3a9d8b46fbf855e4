import { createScanner } from '../src/domain';
import { cleanRecording } from './support/recordings';

it('flags nothing on clean recordings and a planted gap once', async () => {
  const scanner = createScanner({ registries: [], plays: () => [], now: new Date('2025-06-01') });
  await scanner.add(cleanRecording());
  await scanner.add(cleanRecording({ credits: { musicians: [] } as never }));
  const result = await scanner.finish();
  expect(result.scanned).toBe(2);
  expect(result.flagged).toBe(1);
  expect(result.findings[0]?.metadata_gaps).toEqual(['No performer line-up']);
});
