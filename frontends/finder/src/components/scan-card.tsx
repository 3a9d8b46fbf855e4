import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Progress } from '@omni/ui';
import { Loader2, ScanSearch } from 'lucide-react';
import type { CatalogScan } from '../hooks/use-catalog-scan';
import { formatCount } from '../lib/format';

/** What the bar says: the server's own count ("312 of 1,000 tracks"), or that the scan is starting. */
function ProgressLine({ progress }: { progress: CatalogScan['progress'] }) {
  if (!progress || progress.total === 0) {
    return <p className="text-sm text-muted-foreground">Reading your catalog…</p>;
  }
  return (
    <p className="text-sm text-muted-foreground">
      {formatCount(progress.done)} of {formatCount(progress.total)} tracks
    </p>
  );
}

/** 'Run Catalog Scan': the button ('Run Scan' / 'Scanning...') and the running scan's real progress. */
export function ScanCard({ scan }: { scan: CatalogScan }) {
  const { scanning, progress, latest } = scan;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  const lastFailed = !scanning && latest?.status === 'failed';
  return (
    <Card data-testid="scan-card">
      <CardHeader>
        <CardTitle>Run Catalog Scan</CardTitle>
        <CardDescription>
          Checks every track in your catalog for the metadata gaps that hold royalties back, and estimates the
          money at risk from your play counts. Your results say which registries your registrations were
          checked with, if any.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Button onClick={scan.run} disabled={scanning} aria-busy={scanning} className="w-full sm:w-auto">
          {scanning ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <ScanSearch className="h-4 w-4" aria-hidden="true" />
          )}
          {scanning ? 'Scanning...' : 'Run Scan'}
        </Button>
        {scanning ? (
          <div role="status" aria-live="polite" className="space-y-2" data-testid="scan-progress">
            <Progress value={percent} aria-label="Scan progress" />
            <ProgressLine progress={progress} />
          </div>
        ) : null}
        {lastFailed ? (
          <p className="text-sm text-destructive">
            Your last scan did not finish{latest.error ? `: ${latest.error}` : '.'} Run it again.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
