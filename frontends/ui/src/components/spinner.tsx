import { Loader2 } from 'lucide-react';

/** An accessible busy indicator: announced once through role="status", the icon itself is hidden. */
export function Spinner({ label = 'Loading…', className }: { label?: string; className?: string }) {
  return (
    // Plain concatenation, not cn(): the shell shows this and should not pull in tailwind-merge.
    <div role="status" className={`flex items-center gap-2 text-muted-foreground ${className ?? ''}`}>
      <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
