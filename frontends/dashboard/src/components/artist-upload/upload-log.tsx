import { Card, CardContent, CardHeader, CardTitle } from '@omni/ui';
import { useEffect, useRef } from 'react';

/** Spec: the Upload Log panel, one line per step; keeps the newest line in view. */
export function UploadLog({ lines }: { lines: readonly string[] }) {
  const list = useRef<HTMLOListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever a line is added
  useEffect(() => {
    // Scroll the panel, not the page: the user may be watching the progress bar.
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [lines.length]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Upload Log</CardTitle>
      </CardHeader>
      <CardContent>
        <ol
          ref={list}
          className="max-h-60 space-y-1 overflow-y-auto rounded-md bg-muted p-3 font-mono text-xs"
          aria-live="polite"
          data-testid="upload-log"
        >
          {lines.length === 0 ? <li className="text-muted-foreground">Nothing uploaded yet.</li> : null}
          {lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an append-only log; lines may repeat
            <li key={index} className={line.startsWith('Error:') ? 'text-destructive' : undefined}>
              {line}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
