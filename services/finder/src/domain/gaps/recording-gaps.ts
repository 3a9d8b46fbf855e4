// The gaps one recording shows on its own (identifiers, line-up, ℗ line, writers, work code). Rules and their
// conventions are written down in RULES.md beside this file.

import { parsePLine } from '../credits/p-line';
import { featuredInTitle, nameKey } from '../credits/people';
import { checkIpi, checkIsni, checkIswc, checkUpc } from '../identifiers';
import type { ReadRecording } from '../read-recording';
import type { CatalogueRecording } from '../scan-model';
import { type Blocks, type Gap, onReleasePage } from './gap';

/** Without a usable ISRC no society can match the plays: all of the recording's money waits. */
const recordingMoney = (): Blocks => ({
  soundexchange: ['owner', 'featured', 'non_featured'],
  ppl: ['owner', 'performers'],
});

export function recordingGaps(read: ReadRecording): Gap[] {
  return [...identifierGaps(read), ...lineUpGaps(read), ...pLineGaps(read.recording), ...writerGaps(read)];
}

function identifierGaps({ recording, isrc }: ReadRecording): Gap[] {
  const gaps: Gap[] = [];
  const { releaseTitle, legal } = recording;
  if (recording.isrc.trim() === '') {
    gaps.push({
      code: 'isrc_missing',
      text: 'No ISRC',
      evidence: `Track "${recording.title}" has no ISRC, so no society can match its plays to it.`,
      action: onReleasePage(releaseTitle, 'Tracks', `give "${recording.title}" an ISRC.`),
      blocks: recordingMoney(),
    });
  } else if (!isrc.ok) {
    gaps.push({
      code: 'isrc_malformed',
      text: `Malformed ISRC "${recording.isrc}"`,
      evidence: isrc.problem,
      action: onReleasePage(releaseTitle, 'Tracks', `correct the ISRC of "${recording.title}".`),
      blocks: recordingMoney(),
    });
  }
  if (recording.upc.trim() === '') {
    gaps.push({
      code: 'upc_missing',
      text: 'No UPC on the release',
      evidence: `Release "${releaseTitle}" has no UPC; stores and societies identify the product by it.`,
      action: onReleasePage(releaseTitle, 'Basic Info', 'add the release UPC.'),
      blocks: {},
    });
  } else {
    const upc = checkUpc(recording.upc);
    if (!upc.ok)
      gaps.push({
        code: 'upc_malformed',
        text: `Malformed UPC "${recording.upc}"`,
        evidence: upc.problem,
        action: onReleasePage(releaseTitle, 'Basic Info', 'correct the release UPC.'),
        blocks: {},
      });
  }
  const optionalCodes = [
    ['ISWC', legal.iswc, checkIswc, 'iswc_malformed', (): Blocks => ({ impel: ['publishing'] })],
    ['ISNI', legal.isni, checkIsni, 'isni_malformed', (): Blocks => ({})],
  ] as const;
  for (const [label, value, check, code, blocks] of optionalCodes) {
    if (value.trim() === '') continue;
    const result = check(value);
    if (!result.ok)
      gaps.push({
        code,
        text: `Malformed ${label} "${value}"`,
        evidence: result.problem,
        action: onReleasePage(releaseTitle, 'Legal & IDs', `correct the ${label}.`),
        blocks: blocks(),
      });
  }
  for (const ipi of splitIpis(legal.ipi)) {
    const result = checkIpi(ipi);
    if (!result.ok)
      gaps.push({
        code: 'ipi_malformed',
        text: `Malformed IPI "${ipi}"`,
        evidence: result.problem,
        action: onReleasePage(releaseTitle, 'Legal & IDs', 'correct the IPI name number.'),
        blocks: { impel: ['publishing'] },
      });
  }
  return gaps;
}

function lineUpGaps({ recording, musicians }: ReadRecording): Gap[] {
  const { releaseTitle } = recording;
  if (musicians.length === 0)
    return [
      {
        code: 'no_line_up',
        text: 'No performer line-up',
        evidence: `Release "${releaseTitle}" credits no musicians; PPL holds the owner's share back without the line-up, and the non-featured performers' funds cannot pay anyone.`,
        action: onReleasePage(
          releaseTitle,
          'Credits',
          "list every performer under Musicians with a role, e.g. 'Ana Diaz (guitar)', featured performers as 'feat. Bo Lee (vocals)'.",
        ),
        blocks: { ppl: ['owner', 'performers'], soundexchange: ['non_featured'] },
      },
    ];
  const gaps: Gap[] = [];
  const roleless = musicians.filter((person) => person.role === '').map((person) => person.name);
  if (roleless.length > 0)
    gaps.push({
      code: 'musicians_without_role',
      text: `Musicians without a role: ${roleless.join(', ')}`,
      evidence: `PPL pays performers by role; ${roleless.join(', ')} ${roleless.length === 1 ? 'has' : 'have'} none.`,
      action: onReleasePage(releaseTitle, 'Credits', "write each musician's role, e.g. 'Ana Diaz (guitar)'."),
      blocks: { ppl: ['performers'] },
    });
  const credited = new Set(musicians.map((person) => nameKey(person.name)));
  const featured = [...featuredInTitle(recording.title), ...featuredInTitle(recording.mainArtist)];
  const uncredited = featured.filter((name) => !credited.has(nameKey(name)));
  if (uncredited.length > 0)
    gaps.push({
      code: 'featured_not_credited',
      text: `Featured artist not in the line-up: ${uncredited.join(', ')}`,
      evidence: `"${recording.title}" by ${recording.mainArtist} names ${uncredited.join(', ')} as featured, but the musicians list does not credit them.`,
      action: onReleasePage(
        releaseTitle,
        'Credits',
        `add ${uncredited.map((name) => `'feat. ${name} (role)'`).join(', ')} under Musicians.`,
      ),
      blocks: { soundexchange: ['featured'], ppl: ['performers'] },
    });
  return gaps;
}

function pLineGaps(recording: CatalogueRecording): Gap[] {
  const { releaseTitle } = recording;
  const line = parsePLine(recording.legal.copyrightLine);
  const action = onReleasePage(
    releaseTitle,
    'Legal & IDs',
    "write the ℗ line as '℗ <year> <owner>' under Copyright (P Line).",
  );
  if (!line)
    return [
      {
        code: 'p_line_missing',
        text: 'No ℗ line (owner and year of the recording)',
        evidence: `Release "${releaseTitle}" has no Copyright (P Line); PPL needs the ℗ year and owner, and SoundExchange the rights owner.`,
        action,
        blocks: { ppl: ['owner'], soundexchange: ['owner'] },
      },
    ];
  const missing = [line.year === undefined ? 'year' : '', line.owner === '' ? 'owner' : ''].filter(Boolean);
  if (missing.length === 0) return [];
  return [
    {
      code: 'p_line_incomplete',
      text: `℗ line has no ${missing.join(' or ')}`,
      evidence: `The ℗ line reads "${recording.legal.copyrightLine}": it names no ${missing.join(' and no ')}.`,
      action,
      blocks: { ppl: ['owner'] },
    },
  ];
}

function writerGaps({ recording, writers }: ReadRecording): Gap[] {
  const { releaseTitle, legal } = recording;
  const blocks = { impel: ['publishing' as const] };
  if (writers.length === 0)
    return [
      {
        code: 'no_writers',
        text: 'No writers credited',
        evidence: `Release "${releaseTitle}" credits no writers, so the song (the work) cannot be registered with a publisher or society.`,
        action: onReleasePage(
          releaseTitle,
          'Credits',
          "list the writers with their shares, e.g. 'Ana Diaz (50%)'.",
        ),
        blocks,
      },
    ];
  const gaps: Gap[] = [];
  const ipis = splitIpis(legal.ipi);
  if (ipis.length < writers.length) {
    const without = writers.slice(ipis.length).map((writer) => writer.name);
    gaps.push({
      code: 'writers_without_ipi',
      text: `Writers without an IPI number: ${without.join(', ')}`,
      evidence:
        ipis.length === 0
          ? `No IPI name number is given for ${writers.length === 1 ? 'the writer' : `any of the ${writers.length} writers`}.`
          : `The IPI field holds ${ipis.length} number${ipis.length === 1 ? '' : 's'} for ${writers.length} writers (one per writer, in the writers' order); ${without.join(', ')} ${without.length === 1 ? 'has' : 'have'} none.`,
      action: onReleasePage(
        releaseTitle,
        'Legal & IDs',
        "give one IPI per writer under IPI, comma-separated in the writers' order.",
      ),
      blocks,
    });
  }
  if (writers.length > 1) {
    const unshared = writers.filter((writer) => writer.share === undefined).map((writer) => writer.name);
    const total = writers.reduce((sum, writer) => sum + (writer.share ?? 0), 0);
    if (unshared.length > 0 || Math.abs(total - 100) > 0.01)
      gaps.push({
        code: 'writers_without_shares',
        text:
          unshared.length > 0
            ? `Writers without a share: ${unshared.join(', ')}`
            : `Writers' shares add up to ${total}%, not 100%`,
        evidence: `Writers as credited: ${recording.credits.writers.join(', ')}. A work with several writers is registered with each one's share.`,
        action: onReleasePage(
          releaseTitle,
          'Credits',
          "write each writer's share, e.g. 'Ana Diaz (50%)'; shares add up to 100%.",
        ),
        blocks,
      });
  }
  if (legal.iswc.trim() === '')
    gaps.push({
      code: 'iswc_missing',
      text: 'No ISWC for the song',
      evidence: `Release "${releaseTitle}" gives no ISWC; publishers and societies match the work by it.`,
      action: onReleasePage(
        releaseTitle,
        'Legal & IDs',
        'add the ISWC (ask your publisher or PRO; it looks like T-034.524.680-1).',
      ),
      blocks,
    });
  return gaps;
}

/** legal.ipi holds one IPI per writer, comma- or semicolon-separated, in the writers' order ('Name: 00014107338' too). */
export function splitIpis(text: string): string[] {
  return text
    .split(/[,;/]/)
    .map((part) => part.replace(/^[^:\d]*:\s*/, '').trim())
    .filter((part) => part !== '');
}
