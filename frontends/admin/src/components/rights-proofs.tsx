// The owner's answers to a rights hold (issue 27), on the admin's Release Review: each note with the date
// and a download of the file (through the admin-only route, as an attachment: never a public link).
import type { RightsProofJson } from '@omni/proto/api';
import { Button, formatTable, saveDownload, toast } from '@omni/ui';
import { Download } from 'lucide-react';

const KB = 1024;
const sizeOf = (bytes: number) =>
  bytes < KB * KB ? `${Math.max(1, Math.round(bytes / KB))} KB` : `${(bytes / KB / KB).toFixed(1)} MB`;

export function RightsProofs({ proofs }: { proofs: RightsProofJson[] }) {
  if (proofs.length === 0) return null;
  return (
    <div className="space-y-2 rounded-md border p-2 text-sm" data-testid="rights-proofs">
      <p className="font-medium">
        Proof of rights from the artist ({proofs.length} answer{proofs.length === 1 ? '' : 's'})
      </p>
      <ul className="space-y-2">
        {proofs.map((p) => (
          <li key={p.id} className="space-y-1" data-testid="rights-proof">
            <p className="text-xs text-muted-foreground">Sent {formatTable(p.submittedAt)}</p>
            <p className="whitespace-pre-wrap">{p.note}</p>
            <Button
              size="sm"
              variant="outline"
              onClick={() =>
                saveDownload(p.downloadUrl, p.fileName).catch(() =>
                  toast.error('The file could not be downloaded.'),
                )
              }
            >
              <Download aria-hidden="true" />
              {p.fileName} ({sizeOf(p.size)})
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
