// Gaps that need the rest of the catalogue: one ISRC on two different recordings, one recording under two
// ISRCs, and a performer credited on the same recording elsewhere but missing here. Recordings stream through
// once, so only compact keys are kept (never whole recordings), and each gap is reported on the later
// recording, naming the earlier one: found once.
import { nameKey, parsePerson } from '../credits/people';
import { checkIsrc } from '../identifiers';
import type { CatalogueRecording } from '../scan-model';
import { type Gap, onReleasePage } from './gap';

/** Two durations within this many seconds can be the same recording. */
export const SAME_RECORDING_SECONDS = 2;

/** Title and main artist, as two spellings of one recording share them ('(Remix)' still counts). */
export const recordingKey = (recording: CatalogueRecording): string =>
  `${nameKey(recording.title)}\u0001${nameKey(recording.mainArtist)}`;

interface FirstUse {
  trackId: string;
  title: string;
  releaseTitle: string;
  durationSeconds: number;
  /** The musicians credited where the ISRC was first seen, '\u0001'-joined ('' when none). */
  musicians: string;
}

export class CatalogueIndex {
  private readonly byIsrc = new Map<string, FirstUse>();
  /** Recording key → 'isrc\u0001duration' of each ISRC seen for it (usually one). */
  private readonly byRecording = new Map<string, string[]>();

  check(recording: CatalogueRecording): Gap[] {
    const isrc = checkIsrc(recording.isrc);
    if (!isrc.ok) return [];
    const gaps: Gap[] = [];
    const musicians = recording.credits.musicians.map((text) => parsePerson(text).name).filter(Boolean);
    const first = this.byIsrc.get(isrc.normalised);
    if (!first) {
      this.byIsrc.set(isrc.normalised, {
        trackId: recording.trackId,
        title: recording.title,
        releaseTitle: recording.releaseTitle,
        durationSeconds: recording.durationSeconds,
        musicians: musicians.join('\u0001'),
      });
    } else if (
      nameKey(first.title) !== nameKey(recording.title) ||
      Math.abs(first.durationSeconds - recording.durationSeconds) > SAME_RECORDING_SECONDS
    ) {
      gaps.push({
        code: 'isrc_on_two_recordings',
        text: `ISRC ${isrc.normalised} is also on a different recording`,
        evidence: `ISRC ${isrc.normalised} is on "${recording.title}" (${duration(recording.durationSeconds)}) here and on "${first.title}" (${duration(first.durationSeconds)}) on release "${first.releaseTitle}"; plays cannot be told apart.`,
        action: onReleasePage(recording.releaseTitle, 'Tracks', `give "${recording.title}" its own ISRC.`),
        blocks: { soundexchange: ['owner', 'featured', 'non_featured'], ppl: ['owner', 'performers'] },
      });
    } else if (musicians.length > 0 && first.musicians !== '') {
      // The same recording on another release: its line-up cannot differ. Only a name credited there and
      // missing here is reported (a line-up that is simply absent here is the no_line_up gap instead).
      const here = new Set(musicians.map(nameKey));
      const missing = first.musicians.split('\u0001').filter((name) => !here.has(nameKey(name)));
      if (missing.length > 0)
        gaps.push({
          code: 'performer_missing_from_other_release',
          text: `Performer credited elsewhere but missing here: ${missing.join(', ')}`,
          evidence: `The same recording (ISRC ${isrc.normalised}) on release "${first.releaseTitle}" credits ${missing.join(', ')}; this release does not.`,
          action: onReleasePage(
            recording.releaseTitle,
            'Credits',
            `add ${missing.join(', ')} under Musicians, with their roles.`,
          ),
          blocks: { ppl: ['performers'], soundexchange: ['non_featured'] },
        });
    }

    const key = recordingKey(recording);
    const seen = this.byRecording.get(key);
    const twin = seen
      ?.map((entry) => entry.split('\u0001'))
      .find(
        ([other, seconds]) =>
          other !== isrc.normalised &&
          Math.abs(Number(seconds) - recording.durationSeconds) <= SAME_RECORDING_SECONDS,
      );
    if (twin)
      gaps.push({
        code: 'recording_under_two_isrcs',
        text: `Same recording also under ISRC ${twin[0]}`,
        evidence: `"${recording.title}" by ${recording.mainArtist} (${duration(recording.durationSeconds)}) has ISRC ${isrc.normalised} here and ${twin[0]} elsewhere in the catalogue; its plays are split between two codes and may be claimed twice or disputed.`,
        action: onReleasePage(
          recording.releaseTitle,
          'Tracks',
          `use the recording's first ISRC, ${twin[0]}, for "${recording.title}".`,
        ),
        blocks: { soundexchange: [], ppl: [] },
      });
    const entry = `${isrc.normalised}\u0001${recording.durationSeconds}`;
    if (!seen) this.byRecording.set(key, [entry]);
    else if (!seen.some((other) => other.startsWith(`${isrc.normalised}\u0001`))) seen.push(entry);
    return gaps;
  }
}

function duration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
