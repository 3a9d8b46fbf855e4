// The rights check's findings (rule `fingerprint-match`): what the fingerprint index found for each master,
// in words the artist and the admin read. A match of another owner's recording at ≥ 0.9 is a warning with
// no stores, not an error: an error concerning every store would reject the release by itself, and a
// fingerprint is evidence for a person to weigh (the owner may hold the rights), so the release stays in
// review, held for the admin, who sees the matched release, track, score and offset.
import type { FingerprintEvidence, ReviewFinding } from '@omni/proto/api';
import type { MatchDecision } from '../fingerprint';

export const FINGERPRINT_RULE = 'fingerprint-match';

export interface MasterMatch {
  /** The checked master's track number (1-based) and title. */
  track: number;
  title: string;
  releaseId: string;
  matchedTrack: number;
  matchedTitle: string;
  score: number;
  offsetSeconds: number;
  speed: number;
  decision: MatchDecision;
}

const evidenceOf = (m: MasterMatch, decision: FingerprintEvidence['decision']): FingerprintEvidence => ({
  releaseId: m.releaseId,
  track: m.matchedTrack,
  title: m.matchedTitle,
  score: m.score,
  offsetSeconds: m.offsetSeconds,
  speed: m.speed,
  decision,
  uploadTrack: m.track,
});

const percent = (score: number) => `${Math.round(score * 100)} %`;
const clock = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** One finding per match that decides something (`none` gives nothing). */
export function fingerprintFindings(matches: readonly MasterMatch[]): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  for (const m of matches) {
    const evidence =
      `release ${m.releaseId}, track ${m.matchedTrack} “${m.matchedTitle}”, score ${m.score.toFixed(3)}, ` +
      `offset ${m.offsetSeconds.toFixed(1)} s${m.speed !== 1 ? `, speed ${m.speed}` : ''}`;
    const yours = `Track ${m.track} “${m.title}”`;
    if (m.decision === 'hold')
      out.push({
        rule: FINGERPRINT_RULE,
        severity: 'warning',
        stores: [],
        match: evidenceOf(m, 'hold'),
        message: `${yours} sounds like a recording another artist released on Omni (${percent(m.score)} alike from ${clock(m.offsetSeconds)}). The release is held until an admin checks you hold the rights: if you do, send your proof of rights (a note and a licence, contract or invoice) from the release page. Evidence: ${evidence}.`,
      });
    else if (m.decision === 'look-at')
      out.push({
        rule: FINGERPRINT_RULE,
        severity: 'warning',
        stores: [],
        match: evidenceOf(m, 'look-at'),
        message: `${yours} shares part of a recording another artist released on Omni (${percent(m.score)} alike): an edit, a remaster or a sample? An admin will look. Evidence: ${evidence}.`,
      });
    else if (m.decision === 'same-owner-duplicate')
      out.push({
        rule: FINGERPRINT_RULE,
        severity: 'warning',
        stores: [],
        match: evidenceOf(m, 'same-owner-duplicate'),
        message: `${yours} is the same recording as one you already released on Omni: one recording should keep one ISRC. Evidence: ${evidence}.`,
      });
  }
  return out;
}
