import {
  FINDER_MESSAGES,
  type FinderResult,
  listNames,
  registriesNotChecked,
  type ScanJob,
} from '@omni/proto/api';
import { Button, formatTable, StatTile, toast } from '@omni/ui';
import { AlertTriangle, DollarSign, Download, Info, ListMusic } from 'lucide-react';
import { useState } from 'react';
import { downloadScanCsv } from '../lib/finder-api';
import { formatCount, formatUsd } from '../lib/format';
import { scanFailure } from '../lib/scan-failure';
import { FindingItem } from './finding-item';

/** Findings shown at first and added per 'Show more': a 10,000-track catalogue can flag thousands. */
const PAGE = 50;

/** Which registry snapshots the registrations were checked against, and that none was live. */
function CheckedAgainst({ sources }: { sources: FinderResult['checked_against'] }) {
  if (sources.length === 0) return null;
  const names = sources.map(
    ({ registry, snapshot_date, live }) =>
      `${registry} (${live ? 'live' : `snapshot of ${snapshot_date || 'unknown date'}`})`,
  );
  return <p className="text-sm text-muted-foreground">Registrations checked against {names.join(', ')}.</p>;
}

/**
 * Said once, at the top of the results, when registrations were not checked with some registry (today all
 * three: none can be reached from Omni): no finding can then say a recording is unregistered there, and
 * no finding repeats it (issue 21 §3.13).
 */
function RegistriesNotChecked({ names }: { names: string[] }) {
  if (names.length === 0) return null;
  const these = names.length === 1 ? 'this registry' : 'these registries';
  return (
    <div
      role="note"
      aria-labelledby="registries-not-checked-title"
      className="flex gap-3 rounded-lg border border-amber-500/50 bg-amber-50 p-4 text-sm text-amber-900 dark:bg-amber-950/30 dark:text-amber-200"
      data-testid="registries-not-checked"
    >
      <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <div className="space-y-1">
        <p id="registries-not-checked-title" className="font-medium">
          Registrations were not checked with {listNames(names)}.
        </p>
        <p>
          Omni cannot reach {these} yet, so this scan does not tell you whether your recordings and songs are
          registered with {names.length === 1 ? 'it' : 'them'}. The findings below come from your catalog's
          own metadata.
        </p>
      </div>
    </div>
  );
}

function ExportButton({ jobId }: { jobId: string }) {
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      await downloadScanCsv(jobId);
    } catch (error) {
      console.error('Finder export failed', error);
      toast.error('Export Failed', { description: scanFailure(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" disabled={busy} aria-busy={busy} onClick={() => void exportCsv()}>
      <Download aria-hidden="true" />
      Export CSV
    </Button>
  );
}

/** 'Latest Scan Results': the three tiles, the findings and the disclaimer (spec /missing-money-finder). */
export function ScanResults({ job, result }: { job: ScanJob; result: FinderResult }) {
  const [showing, setShowing] = useState(PAGE);
  const findings = result.findings.slice(0, showing);
  return (
    <section aria-labelledby="results-title" className="space-y-6" data-testid="scan-results">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="results-title" className="text-2xl font-semibold tracking-tight">
            Latest Scan Results
          </h2>
          <p className="text-sm text-muted-foreground">Scanned {formatTable(job.created_at)}</p>
        </div>
        <ExportButton jobId={job.id} />
      </div>
      <RegistriesNotChecked names={registriesNotChecked(result)} />
      <div className="grid gap-4 sm:grid-cols-3">
        <StatTile
          testId="scan-tile"
          title="Tracks Scanned"
          value={formatCount(result.scanned)}
          icon={<ListMusic className="h-4 w-4" aria-hidden="true" />}
        />
        <StatTile
          testId="scan-tile"
          title="Issues Found"
          value={formatCount(result.flagged)}
          icon={<AlertTriangle className="h-4 w-4" aria-hidden="true" />}
        />
        <StatTile
          testId="scan-tile"
          title="Est. Value at Risk"
          value={formatUsd(result.estimated_value_at_risk_usd)}
          icon={<DollarSign className="h-4 w-4" aria-hidden="true" />}
        />
      </div>
      <CheckedAgainst sources={result.checked_against} />
      {result.findings.length === 0 ? (
        <p className="rounded-lg border bg-card p-4 text-sm">
          No issues found: every scanned track has its registrations and metadata in order.
        </p>
      ) : (
        <div className="space-y-3">
          <h3 className="text-lg font-semibold">Findings</h3>
          <ul className="space-y-3" aria-label="Findings">
            {findings.map((finding, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a result never reorders, and one recording can be flagged on two tracks alike.
              <FindingItem key={`${finding.track_id || finding.isrc}-${index}`} finding={finding} />
            ))}
          </ul>
          {result.findings.length > showing ? (
            <Button variant="outline" onClick={() => setShowing((n) => n + PAGE)}>
              Show more ({formatCount(result.findings.length - showing)} left)
            </Button>
          ) : null}
        </div>
      )}
      <p className="rounded-md border bg-muted/40 p-4 text-xs text-muted-foreground" data-testid="disclaimer">
        {
          // A result stored before scans said so claims snapshots were checked even when none was.
          result.checked_against.length === 0
            ? FINDER_MESSAGES.disclaimerNoRegistries
            : result.disclaimer.trim() || FINDER_MESSAGES.disclaimer
        }
      </p>
    </section>
  );
}
