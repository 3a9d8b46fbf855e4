// ExportScan: a completed scan's findings as CSV, one row per finding, each with the link to the release
// page where the artist fixes it (the dashboard's /release/:id). RFC 4180 quoting by csv-stringify; a text
// cell that a spreadsheet would run as a formula (= + - @, tab, carriage return first) is prefixed with '
// (OWASP's CSV injection advice), since titles and credits are typed by users.
import { fail } from '@omni/platform';
import { FINDER_MESSAGES, type Finding } from '@omni/proto/api';
import { stringify } from 'csv-stringify/sync';
import type { JobsRepository } from '../store/jobs';

const HEADER = [
  'Title',
  'Artist',
  'ISRC',
  'Missing registrations',
  'Metadata gaps',
  'Recommended actions',
  'Value at risk (USD)',
  'How the value was estimated',
  'Release page',
];

export const safeCell = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

function row(finding: Finding, publicUrl: string): string[] {
  const list = (items: string[]) => safeCell(items.join('; '));
  return [
    safeCell(finding.recording_title),
    safeCell(finding.main_artist),
    safeCell(finding.isrc),
    list(finding.missing_registrations),
    list(finding.metadata_gaps),
    list(finding.recommended_actions),
    finding.value_at_risk_usd === null ? '' : finding.value_at_risk_usd.toFixed(2),
    finding.value_basis
      ? safeCell(`${finding.value_basis.formula}; ${finding.value_basis.assumptions.join('; ')}`)
      : 'No play counts known for this recording: no value estimated.',
    finding.release_id ? `${publicUrl}/release/${encodeURIComponent(finding.release_id)}` : '',
  ];
}

export async function exportScan(jobs: JobsRepository, publicUrl: string, accountId: string, jobId: string) {
  const job = jobId ? await jobs.owned(accountId, jobId) : await jobs.latest(accountId);
  if (!job) throw fail('scan_not_found', jobId ? 'No such scan.' : FINDER_MESSAGES.noScanYet);
  if (job.status !== 'completed' || !job.result)
    throw fail('invalid_request', 'This scan has not completed; export it once it has.');
  const csv = stringify([HEADER, ...job.result.findings.map((f) => row(f, publicUrl))], {
    quoted_match: /[",\r\n]/,
    record_delimiter: '\r\n',
  });
  return { fileName: `missing-money-finder-${job.created_at.slice(0, 10)}-${job._id.slice(0, 8)}.csv`, csv };
}
