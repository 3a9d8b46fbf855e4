// Pins the structure of the ERN 4.3 single, takedown and 12-track two-disc album: any change to element order, names or values shows
// as a diff against the committed outline. Regenerate deliberately with UPDATE_GOLDEN=1.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildNewReleaseMessage, buildTakedownMessage } from '../src/domain/ddex';
import { albumInput, singleInput } from './support/ern-fixtures';
import { ernOutline } from './support/ern-outline';

function expectGolden(name: string, xml: string) {
  const file = join(__dirname, 'golden', name);
  const outline = ernOutline(xml);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, outline);
  expect(outline).toBe(readFileSync(file, 'utf8'));
}

test('the single matches its golden outline', () => {
  expectGolden('single.ern43.txt', buildNewReleaseMessage(singleInput()));
});

test('the takedown matches its golden outline', () => {
  const { deals: _, ...rest } = singleInput();
  expectGolden('takedown.ern43.txt', buildTakedownMessage(rest));
});

test('the 12-track album matches its golden outline', () => {
  expectGolden('album-12.ern43.txt', buildNewReleaseMessage(albumInput()));
});
