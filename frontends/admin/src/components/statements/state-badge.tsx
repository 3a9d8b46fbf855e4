import type { ImportState } from '@omni/proto/api';
import { Badge, cn } from '@omni/ui';
import { Loader2 } from 'lucide-react';
import { isActive, STATE_LABEL } from '../../lib/statement-formats';

/** An import's state: moving (with a spinner), done, or refused. */
export function StateBadge({ state, className }: { state: ImportState; className?: string }) {
  const moving = isActive(state);
  return (
    <Badge
      variant={state === 'refused' ? 'destructive' : moving ? 'secondary' : 'outline'}
      className={cn(
        'gap-1 whitespace-nowrap',
        state === 'done' && 'border-emerald-600/40 text-emerald-700 dark:text-emerald-400',
        className,
      )}
      data-state={state}
    >
      {moving ? (
        <Loader2 className="h-3 w-3 animate-spin motion-reduce:animate-none" aria-hidden="true" />
      ) : null}
      {STATE_LABEL[state]}
    </Badge>
  );
}
