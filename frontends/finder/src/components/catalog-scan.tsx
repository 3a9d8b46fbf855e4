import { useCatalogScan } from '../hooks/use-catalog-scan';
import { PlaysUpload } from './plays-upload';
import { ScanCard } from './scan-card';
import { ScanResults } from './scan-results';

/** A subscriber's scan: run it, see its progress and its latest results, and supply play counts. */
export function CatalogScan({ userId }: { userId: string }) {
  const scan = useCatalogScan(userId);
  const shown = scan.shown;
  return (
    <div className="space-y-8">
      <div className="grid gap-6 lg:grid-cols-2">
        <ScanCard scan={scan} />
        <PlaysUpload />
      </div>
      {shown?.result ? <ScanResults key={shown.id} job={shown} result={shown.result} /> : null}
    </div>
  );
}
