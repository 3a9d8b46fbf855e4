// What both DSR profiles share: the HEAD record, the rules for counting lines, the footer check, and the
// plain-words refusals. Line counting follows the footer cells' own definition (NumberOfLinesInFile /
// NumberOfLinesInReport in both XSDs): "including Header and Footer Records as well as empty Records
// (Part 1 §6.6.7) and commented-out Records (§6.6.9)". So every physical line up to and including the
// footer counts: '#' comment lines, blank lines, and anything before the HEAD. The DDEX YouTube sample
// agrees: 35 physical lines, nine of them '#' comments, and FOOT says 35.
import { FOOT, HEAD, SRFO, text } from './dsr-cells';
import { count, isoDay, isoPeriod } from './fields';
import { type StatementHeader, StatementRefused } from './line';

export type Profile = 'financial' | 'basic-audio';

export interface Head {
  profile: Profile;
  lineNo: number;
  sender: string;
  senderName: string;
  serviceDescription: string;
  messageId: string;
  usage: { start: string; end: string };
  reportedAt: string;
}

const PROFILES: Record<string, { profile: Profile; versions: string[] }> = {
  financialreportingtorecordcompaniesprofilesrb: { profile: 'financial', versions: ['1.0', '1'] },
  financialreportingtorecordcompaniesprofile: { profile: 'financial', versions: ['1.0', '1'] },
  // 1.3 changed what SU02 points to (a sub-release), not the cells this reader uses.
  basicaudioprofile: { profile: 'basic-audio', versions: ['1.2', '1.3'] },
};

/** Reads the HEAD record's cells; throws StatementRefused for a profile or version Omni does not read. */
export function readHead(cells: string[], lineNo: number): Head {
  const profileName = text(cells[HEAD.Profile]);
  const version = text(cells[HEAD.ProfileVersion]);
  const known = PROFILES[profileName.toLowerCase()];
  if (!known) {
    throw new StatementRefused(
      `This DSR file is in the "${profileName || 'unnamed'}" profile, which Omni does not read. Omni reads the Financial Reporting to Record Companies profile (single-record blocks, 1.0) and the Basic Audio profile (1.2 and 1.3); ask the store for one of those.`,
    );
  }
  if (!known.versions.includes(version)) {
    throw new StatementRefused(
      `This DSR file is in version "${version}" of the ${profileName} profile, which Omni does not read (it reads ${known.versions[0]}${known.profile === 'basic-audio' ? ' and 1.3' : ''}). Ask the store for a supported version.`,
    );
  }
  const files = text(cells[HEAD.NumberOfFiles]);
  if (files !== '' && files !== '1') {
    throw new StatementRefused(
      `This report is split over ${files} files. Omni reads reports sent as one file; ask the store to send it as a single file.`,
    );
  }
  const messageId = text(cells[HEAD.MessageId]);
  if (messageId === '') {
    throw new StatementRefused(
      'The first record (HEAD) of this DSR file has no message id, so Omni cannot tell it apart from other reports. Ask the store for the file again.',
    );
  }
  const start = isoPeriod(text(cells[HEAD.UsageStartDate]));
  const end = isoPeriod(text(cells[HEAD.UsageEndDate]));
  if (!start || !end) {
    throw new StatementRefused(
      `The first record (HEAD) of this DSR file does not give a usable reporting period ("${text(cells[HEAD.UsageStartDate])}" to "${text(cells[HEAD.UsageEndDate])}"). Ask the store for the file again.`,
    );
  }
  return {
    profile: known.profile,
    lineNo,
    sender: text(cells[HEAD.SenderPartyId]) || text(cells[HEAD.SenderName]),
    senderName: text(cells[HEAD.SenderName]) || text(cells[HEAD.SenderPartyId]),
    serviceDescription: text(cells[HEAD.ServiceDescription]),
    messageId,
    usage: { start: start.start, end: end.end },
    reportedAt: isoDay(text(cells[HEAD.MessageCreatedDateTime])) ?? '',
  };
}

export const headerOf = (head: Head): StatementHeader => ({
  sender: head.sender,
  messageId: head.messageId,
  periodStart: head.usage.start,
  periodEnd: head.usage.end,
  reportedAt: head.reportedAt || null,
});

export const notDsr = () =>
  new StatementRefused(
    'This file does not start with a DDEX DSR header record (HEAD), so it is not a DSR file, or its first lines are missing. Check that the right file was sent, or choose the store template that matches it.',
  );

export const noFooter = () =>
  new StatementRefused(
    'The file ends before its closing record (FOOT), so it was probably cut off during the transfer. Ask the store for the file again.',
  );

export const afterFooter = (lineNo: number) =>
  new StatementRefused(
    `The file goes on after its closing record (FOOT), at line ${count(lineNo)}: two files may have been joined. Ask the store for the file again.`,
  );

export const unknownRecord = (lineNo: number, type: string, profile: string) =>
  type === 'HEAD'
    ? new StatementRefused(
        `The file has a second header record (HEAD) at line ${count(lineNo)}: two reports may have been joined into one file. Ask the store for each report as a file of its own.`,
      )
    : new StatementRefused(
        `Line ${count(lineNo)} is a record of type "${type.slice(0, 12)}", which a ${profile} DSR file does not have. The file may be damaged; ask the store for it again.`,
      );

function declared(cell: string | undefined, what: string, lineNo: number): number | null {
  const t = text(cell);
  if (t === '') return null;
  if (!/^\d+$/.test(t)) {
    throw new StatementRefused(
      `The closing record (FOOT, line ${count(lineNo)}) gives "${t.slice(0, 20)}" as the number of ${what}, which is not a number. Ask the store for the file again.`,
    );
  }
  return Number(t);
}

export interface Found {
  lines: number;
  summaries: number;
  blocks?: number;
}

/** Checks the footer's counts against what was read; `cells` is an SRFO or a FOOT record. */
export function checkFooter(type: 'SRFO' | 'FOOT', cells: string[], lineNo: number, found: Found): void {
  const lines =
    type === 'SRFO'
      ? declared(cells[SRFO.NumberOfLinesInReport], 'lines', lineNo)
      : (declared(cells[FOOT.NumberOfLinesInFile], 'lines', lineNo) ??
        declared(cells[FOOT.NumberOfLinesInReport], 'lines', lineNo));
  if (lines === null) {
    throw new StatementRefused(
      `The closing record (FOOT, line ${count(lineNo)}) does not say how many lines the file has, so Omni cannot tell whether it is complete. Ask the store for the file again.`,
    );
  }
  if (lines !== found.lines) {
    const why =
      found.lines < lines ? 'it may have been cut off' : 'lines may have been added, or two files joined';
    throw new StatementRefused(
      `The file says it has ${count(lines)} lines (FOOT) but ${count(found.lines)} were found; ${why}. Ask the store for the file again.`,
    );
  }
  const summaries = declared(
    cells[type === 'SRFO' ? SRFO.NumberOfSummaryRecords : FOOT.NumberOfSummaryRecords],
    'summary records',
    lineNo,
  );
  if (summaries !== null && summaries !== found.summaries) {
    throw new StatementRefused(
      `The file says it has ${count(summaries)} summary records (FOOT) but ${count(found.summaries)} were found. The file is damaged; ask the store for it again.`,
    );
  }
  if (type === 'FOOT' && found.blocks !== undefined) {
    const blocks = declared(cells[FOOT.NumberOfBlocksInFile], 'blocks', lineNo);
    if (blocks !== null && blocks !== found.blocks) {
      throw new StatementRefused(
        `The file says it has ${count(blocks)} release blocks (FOOT) but ${count(found.blocks)} were found. The file is damaged; ask the store for it again.`,
      );
    }
  }
}

/** Whether a line is a record: not blank and not a '#' comment (both still count as lines). */
export function recordLine(line: string): boolean {
  return line !== '' && line.charCodeAt(0) !== 35 && line.trim() !== '';
}
