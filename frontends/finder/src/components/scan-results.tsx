import { FINDER_MESSAGES, type FinderResult, type ScanJob } from '@omni/proto/api';
import { Button, formatTable, StatTile, toast } from '@omni/ui';
import { AlertTriangle, DollarSign, Download, ListMusic } from 'lucide-react';
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
        {result.disclaimer.trim() || FINDER_MESSAGES.disclaimer}
      </p>
    </section>
  );
}
