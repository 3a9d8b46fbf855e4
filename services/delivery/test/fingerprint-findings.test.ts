// The rights check's findings (domain/checks/fingerprint.ts): one per deciding match, always a warning with
// no stores (an error for every store would reject the release by itself, and a match is evidence for a
// person), worded for the artist, with the evidence as fields.

import { FINGERPRINT_RULE, fingerprintFindings, type MasterMatch } from '../src/domain/checks/fingerprint';
import { refusedEverywhere } from '../src/use-cases/review-release';

const match = (decision: MasterMatch['decision'], score: number): MasterMatch => ({
  track: 1,
  title: 'Copy',
  releaseId: 'release-a',
  matchedTrack: 2,
  matchedTitle: 'Original',
  score,
  offsetSeconds: 10.03,
  speed: 1,
  decision,
});

it('words a hold, a look-at and a duplicate, with the evidence, and none for no decision', () => {
  const findings = fingerprintFindings([
    match('hold', 0.95),
    match('look-at', 0.55),
    match('same-owner-duplicate', 0.99),
    match('none', 0.1),
  ]);
  expect(findings.map((f) => [f.rule, f.severity, f.stores, f.match?.decision])).toEqual([
    [FINGERPRINT_RULE, 'warning', [], 'hold'],
    [FINGERPRINT_RULE, 'warning', [], 'look-at'],
    [FINGERPRINT_RULE, 'warning', [], 'same-owner-duplicate'],
  ]);
  expect(findings[0]?.message).toContain('held until an admin');
  expect(findings[0]?.message).toContain('from 0:10');
  expect(findings[0]?.match).toEqual({
    releaseId: 'release-a',
    track: 2,
    title: 'Original',
    score: 0.95,
    offsetSeconds: 10.03,
    speed: 1,
    decision: 'hold',
    // The checked release's own track, so the admin can play the two side by side.
    uploadTrack: 1,
  });
  // A hold waits for the admin; it never rejects the release by itself.
  expect(refusedEverywhere(findings, ['spotify'])).toBe(false);
});
