// Gaps that need the rest of the catalogue: one ISRC on two different recordings, one recording under two
// ISRCs, and a performer credited on the same recording elsewhere but missing here. Recordings stream through
// once, so only compact keys are kept (never whole recordings), and each gap is reported on the later
// recording, naming the earlier one: found once.
import { nameKey } from '../credits/people';
import type { ReadRecording } from '../read-recording';
import type { CatalogueRecording } from '../scan-model';
import { type Gap, onReleasePage } from './gap';

/** Two durations within this many seconds can be the same recording. */
export const SAME_RECORDING_SECONDS = 2;

/** Title and main artist, as two spellings of one recording share them ('(Remix)' still counts). */
export const recordingKey = (recording: CatalogueRecording): string =>
  `${nameKey(recording.title)}\u0001${nameKey(recording.mainArtist)}`;

const SEP = '\u0001';
const NEXT = '\u0002';

export class CatalogueIndex {
  /** ISRC → 'title␁duration␁releaseId' where it was first seen. */
  private readonly byIsrc = new Map<string, string>();
  /** Release id → 'title␁musician␁musician…', once per release (its tracks share credits). */
  private readonly releases = new Map<string, string>();
  /** Recording key → 'isrc␁duration' of each ISRC seen for it, '␂'-separated (usually one). */
  private readonly byRecording = new Map<string, string>();

  check(read: ReadRecording): Gap[] {
    const { recording, isrc } = read;
    if (!isrc.ok) return [];
    const gaps: Gap[] = [];
    const code = isrc.normalised;
    if (!this.releases.has(recording.releaseId))
      this.releases.set(
        recording.releaseId,
        flat([recording.releaseTitle, ...read.musicians.map((p) => p.name)].join(SEP)),
      );
    const first = this.byIsrc.get(code);
    if (first === undefined) {
      this.byIsrc.set(
        code,
        flat([recording.title, recording.durationSeconds, recording.releaseId].join(SEP)),
      );
    } else {
      const [firstTitle = '', seconds, releaseId = ''] = first.split(SEP);
      const [firstReleaseTitle = '', ...firstMusicians] = (this.releases.get(releaseId) ?? '').split(SEP);
      if (
        nameKey(firstTitle) !== nameKey(recording.title) ||
        Math.abs(Number(seconds) - recording.durationSeconds) > SAME_RECORDING_SECONDS
      ) {
        gaps.push({
          code: 'isrc_on_two_recordings',
          text: `ISRC ${code} is also on a different recording`,
          evidence: `ISRC ${code} is on "${recording.title}" (${duration(recording.durationSeconds)}) here and on "${firstTitle}" (${duration(Number(seconds))}) on release "${firstReleaseTitle}"; plays cannot be told apart.`,
          action: onReleasePage(recording.releaseTitle, 'Tracks', `give "${recording.title}" its own ISRC.`),
          blocks: { soundexchange: ['owner', 'featured', 'non_featured'], ppl: ['owner', 'performers'] },
        });
      } else if (
        releaseId !== recording.releaseId &&
        read.musicians.length > 0 &&
        firstMusicians.length > 0
      ) {
        // The same recording on another release: one recording has one line-up. Only a name credited there
        // and missing here is reported (a line-up that is simply absent here is the no_line_up gap instead).
        const here = new Set(read.musicians.map((person) => nameKey(person.name)));
        const missing = firstMusicians.filter((name) => !here.has(nameKey(name)));
        if (missing.length > 0)
          gaps.push({
            code: 'performer_missing_from_other_release',
            text: `Performer credited elsewhere but missing here: ${missing.join(', ')}`,
            evidence: `The same recording (ISRC ${code}) on release "${firstReleaseTitle}" credits ${missing.join(', ')}; this release does not.`,
            action: onReleasePage(
              recording.releaseTitle,
              'Credits',
              `add ${missing.join(', ')} under Musicians, with their roles.`,
            ),
            blocks: { ppl: ['performers'], soundexchange: ['non_featured'] },
          });
      }
    }

    const key = recordingKey(recording);
    const seen = this.byRecording.get(key);
    const twin = seen
      ?.split(NEXT)
      .map((entry) => entry.split(SEP))
      .find(
        ([other, seconds]) =>
          other !== code && Math.abs(Number(seconds) - recording.durationSeconds) <= SAME_RECORDING_SECONDS,
      );
    if (twin)
      gaps.push({
        code: 'recording_under_two_isrcs',
        text: `Same recording also under ISRC ${twin[0]}`,
        evidence: `"${recording.title}" by ${recording.mainArtist} (${duration(recording.durationSeconds)}) has ISRC ${code} here and ${twin[0]} elsewhere in the catalogue; its plays are split between two codes and may be claimed twice or disputed.`,
        action: onReleasePage(
          recording.releaseTitle,
          'Tracks',
          `use the recording's first ISRC, ${twin[0]}, for "${recording.title}".`,
        ),
        blocks: { soundexchange: [], ppl: [] },
      });
    const entry = `${code}${SEP}${recording.durationSeconds}`;
    if (seen === undefined) this.byRecording.set(flat(key), flat(entry));
    else if (!seen.split(NEXT).some((other) => other.startsWith(`${code}${SEP}`)))
      this.byRecording.set(key, flat(`${seen}${NEXT}${entry}`));
    return gaps;
  }
}

/** A joined string is a rope holding its parts; flattening it keeps one compact copy instead. */
function flat(text: string): string {
  // Converting to a number makes V8 flatten the string in place (the flatstr trick).
  void Number(text);
  return text;
}

function duration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
