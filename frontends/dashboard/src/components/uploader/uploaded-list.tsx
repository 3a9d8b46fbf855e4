import { Button } from '@omni/ui';
import { Copy } from 'lucide-react';
import { copyText } from '../../lib/copy-text';

export interface UploadedItem {
  /** Where the file lies, `{bucket}/{key}`: shown, and the list's key. */
  path: string;
  /** Where it opens: a public URL, or a signed link for a private bucket. */
  url: string;
}

/** The uploaded files, each a link showing its path, with a Copy button for its absolute URL. */
export function UploadedList({
  items,
  empty = 'Nothing uploaded yet.',
}: {
  items: UploadedItem[];
  empty?: string;
}) {
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold">Uploaded files</h3>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="space-y-2" data-testid="uploaded-files">
          {items.map((file) => (
            <li key={file.path} className="flex items-center gap-2 text-sm">
              <a
                href={file.url}
                target="_blank"
                rel="noreferrer"
                className="min-w-0 flex-1 truncate font-mono text-xs text-primary hover:underline"
              >
                {file.path}
              </a>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Copy link to ${file.path}`}
                onClick={() => copyText(new URL(file.url, window.location.href).href)}
              >
                <Copy aria-hidden="true" />
                Copy
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
