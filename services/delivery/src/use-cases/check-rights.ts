// Review's rights check: each master of the release (staged by review, so fpcalc reads a local file in a
// child process, off the event loop) is fingerprinted and looked up in the index, and each match that
// decides something becomes a `fingerprint-match` finding. Each master is then put in the index at once,
// at submission rather than at approval, so two releases waiting in review together catch each other
// (docs/rights.md). The put is keyed by release and track, so a retried or resubmitted review replaces it.
import type { catalog } from '@omni/proto';
import type { ReviewFinding } from '@omni/proto/api';
import { fingerprintFindings, type MasterMatch } from '../domain/checks/fingerprint';
import { FingerprintError, type Fingerprinter } from '../providers/fingerprinter/port';
import type { FingerprintIndex } from '../store/fingerprints';
import { checkMaster, registerMaster } from './check-fingerprint';

export interface RightsDeps {
  fingerprinter: Fingerprinter;
  index: FingerprintIndex;
}

/** `paths`: the staged master of each track, by catalog track id (a track without one is not checked). */
export async function checkRights(
  deps: RightsDeps,
  release: Pick<catalog.Release, 'id' | 'ownerId' | 'tracks'>,
  paths: ReadonlyMap<string, string>,
): Promise<ReviewFinding[]> {
  if (deps.fingerprinter.missing()) return [];
  const matches: MasterMatch[] = [];
  for (const [i, track] of release.tracks.entries()) {
    const file = paths.get(track.id);
    if (!file) continue;
    const ref = { ownerId: release.ownerId, releaseId: release.id };
    // A file fpcalc cannot decode is not a recording anyone can match: the audio checks speak of it, and
    // a retry would fail the same way. Anything else (the index's store) is retried by the consumer.
    const check = await checkMaster(deps, file, ref).catch((err: unknown) => {
      if (err instanceof FingerprintError) return null;
      throw err;
    });
    if (!check) continue;
    for (const m of check.matches)
      matches.push({
        track: i + 1,
        title: track.title,
        releaseId: m.releaseId,
        matchedTrack: m.track,
        matchedTitle: m.title,
        score: m.score,
        offsetSeconds: m.offsetSeconds,
        speed: m.speed,
        decision: m.decision,
      });
    await registerMaster(
      deps.index,
      { ...ref, recordingId: `${release.id}:${i + 1}`, track: i + 1, title: track.title },
      check.master.print,
    );
  }
  return fingerprintFindings(matches);
}
