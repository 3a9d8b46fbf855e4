import type { FileCheck } from '../lib/file-facts';

/** The rule, checked in the browser before upload; what is wrong with the chosen file, in the rule's words. */
export function FileCheckNote({
  rule,
  result,
  chosen,
  testId,
}: {
  rule: string;
  result: FileCheck | null;
  chosen: boolean;
  testId: string;
}) {
  if (result && result.problems.length > 0) {
    return (
      <div role="alert" data-testid={testId} className="space-y-1 text-destructive">
        {result.problems.map((problem) => (
          <p key={problem}>{problem}</p>
        ))}
        <p className="text-muted-foreground">
          Checked in your browser: nothing was uploaded. Choose another file.
        </p>
      </div>
    );
  }
  return (
    <p data-testid={testId} className="text-muted-foreground">
      {chosen && result
        ? `Checked in your browser before upload: ${rule}.`
        : `Needed: ${rule}. Checked in your browser as soon as you choose a file, before anything is uploaded.`}
    </p>
  );
}
