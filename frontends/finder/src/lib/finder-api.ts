// The Finder's scan calls (spec §7 run-finder-scan, the latest job, the export and the play counts), each
// answer parsed with the contract in proto/api/finder.ts so the screen only decides what to show.
import {
  FINDER_MESSAGES,
  type FinderResult,
  type ImportPlaysResponse,
  importPlaysResponse,
  latestScanResponse,
  MAX_PLAYS_CSV_BYTES,
  type ScanJob,
  scanResponse,
} from '@omni/proto/api';
import { apiFetch } from '@omni/ui';

/** A scan the server answered with ok: false (spec §8: its message, or 'Scan failed'). */
export class ScanRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScanRefused';
  }
}

/** An answer that is not the contract's shape: the service is not the one this screen was built for. */
export class UnexpectedAnswer extends Error {
  constructor(what: string) {
    super(`The ${what} answer did not match the Finder contract.`);
    this.name = 'UnexpectedAnswer';
  }
}

export interface StartedScan {
  jobId: string;
  /** The result when the scan finished within the server's wait; null while it still runs. */
  result: FinderResult | null;
  job: ScanJob | null;
}

/** run-finder-scan: {scan_scope: 'global', isrcs: []} → {ok, data: {job_id, result}} (spec §7). */
export async function startScan(): Promise<StartedScan> {
  const body = await apiFetch('/api/finder/scans', {
    method: 'POST',
    body: JSON.stringify({ scan_scope: 'global', isrcs: [] }),
  });
  const parsed = scanResponse.safeParse(body);
  if (!parsed.success) throw new UnexpectedAnswer('scan');
  const { ok, data, error } = parsed.data;
  if (!ok || !data) throw new ScanRefused(error?.message?.trim() || FINDER_MESSAGES.scanFailed);
  return { jobId: data.job_id, result: data.result, job: data.job ?? null };
}

/** The account's latest scan job, or null when it never scanned. */
export async function fetchLatestScan(): Promise<ScanJob | null> {
  const parsed = latestScanResponse.safeParse(await apiFetch('/api/finder/scans/latest'));
  if (!parsed.success) throw new UnexpectedAnswer('latest scan');
  return parsed.data.job;
}

/**
 * Downloads a scan's findings as CSV. The export needs the bearer token, so a plain link cannot fetch it:
 * the text is fetched here and handed to the browser as a file.
 */
export async function downloadScanCsv(jobId: string): Promise<void> {
  const body = await apiFetch(`/api/finder/scans/${encodeURIComponent(jobId)}/export.csv`, {
    headers: { accept: 'text/csv' },
  });
  const text = typeof body === 'string' ? body : '';
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `missing-money-finder-${jobId}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A play-count file the server would refuse for its size: said before sending 5 MB for nothing. */
export class PlaysFileTooLarge extends Error {
  constructor() {
    super(`The file is over ${MAX_PLAYS_CSV_BYTES / 1024 / 1024} MB. Split it into smaller files.`);
    this.name = 'PlaysFileTooLarge';
  }
}

/** Sends a play-count CSV (isrc,territory,plays[,year][,service_type]) for the next scan's estimates. */
export async function importPlays(file: File): Promise<ImportPlaysResponse> {
  if (file.size > MAX_PLAYS_CSV_BYTES) throw new PlaysFileTooLarge();
  const body = await apiFetch('/api/finder/plays', {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: await file.text(),
  });
  const parsed = importPlaysResponse.safeParse(body);
  if (!parsed.success) throw new UnexpectedAnswer('play count');
  return parsed.data;
}
