import { Card, CardContent, CardDescription, CardHeader, CardTitle, Spinner, useSession } from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { CONSOLE_BUCKETS } from '../../lib/console-buckets';
import { errorMessage } from '../../lib/error-message';
import { fetchStorageStatus } from '../../lib/releases-api';

function Item({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <li className="flex items-center gap-2 text-sm" data-state={ok ? 'ok' : 'missing'}>
      {ok ? (
        <CheckCircle2 className="h-4 w-4 text-green-600" aria-label="Ready" />
      ) : (
        <XCircle className="h-4 w-4 text-destructive" aria-label="Missing" />
      )}
      {children}
    </li>
  );
}

/**
 * Spec: the setup checklist (the seven buckets, authenticated uploads, the releases table), shown
 * as the server reports it now rather than as static advice.
 */
export function SetupChecklist() {
  const { session } = useSession();
  const status = useQuery({
    queryKey: ['storage-status', session?.user.id],
    queryFn: fetchStorageStatus,
    enabled: !!session,
  });
  const buckets = new Map(status.data?.buckets.map((bucket) => [bucket.name, bucket]));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Setup Checklist</CardTitle>
        <CardDescription>What this console needs on the server, checked live.</CardDescription>
      </CardHeader>
      <CardContent>
        {!session ? (
          <p className="text-sm text-muted-foreground">Sign in to check the storage setup.</p>
        ) : status.isPending ? (
          <Spinner label="Checking storage…" />
        ) : status.error ? (
          <p className="text-sm text-destructive" role="alert">
            Could not check the setup: {errorMessage(status.error, 'unknown error')}
          </p>
        ) : (
          <ul className="space-y-1.5" data-testid="setup-checklist">
            {CONSOLE_BUCKETS.map((name) => {
              const bucket = buckets.get(name);
              return (
                <Item key={name} ok={bucket?.exists ?? false}>
                  Bucket <span className="font-mono">{name}</span>
                  {bucket?.accepts ? <span className="text-muted-foreground">({bucket.accepts})</span> : null}
                </Item>
              );
            })}
            <Item ok>Authenticated uploads allowed (signed URLs for signed-in users)</Item>
            {status.data.tables.map((table) => (
              <Item key={table.name} ok={table.exists}>
                Table <span className="font-mono">{table.name}</span>
              </Item>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
