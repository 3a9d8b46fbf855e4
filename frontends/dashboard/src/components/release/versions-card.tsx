import { Card, CardContent, CardHeader, CardTitle, formatAgo, formatTable } from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { fetchVersions } from '../../lib/releases-api';

const KIND_LABEL: Record<string, string> = {
  created: 'Submitted',
  resubmitted: 'Fixed and resubmitted',
  edited: 'Edited',
};

/** Every version of the release, newest first, each with what changed from the one before. */
export function VersionsCard({ releaseId }: { releaseId: string }) {
  const versions = useQuery({
    queryKey: ['release', releaseId, 'versions'],
    queryFn: () => fetchVersions(releaseId),
  });
  // One version is the release as submitted: there is no history to show yet.
  if (!versions.data || versions.data.length < 2) return null;
  return (
    <Card data-testid="release-versions">
      <CardHeader>
        <CardTitle>Versions</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="space-y-3">
          {versions.data.map((v) => (
            <li key={v.version} className="text-sm" data-testid="release-version">
              <p className="font-medium">
                Version {v.version} · {KIND_LABEL[v.kind] ?? v.kind} ·{' '}
                <time
                  dateTime={v.createdAt}
                  title={formatTable(v.createdAt)}
                  className="font-normal text-muted-foreground"
                >
                  {formatAgo(v.createdAt)}
                </time>
              </p>
              {v.changes.length > 0 ? (
                <ul className="mt-1 space-y-0.5 pl-4">
                  {v.changes.map((c) => (
                    <li key={c.field} className="break-words">
                      <span className="text-muted-foreground">{c.label}:</span> {c.before || '(empty)'} →{' '}
                      {c.after || '(empty)'}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
