import { MAX_STATEMENT_BYTES, STATEMENT_SOURCES, type StatementSource } from '@omni/proto/api';
import {
  Button,
  type ByteProgress,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatTable,
  Input,
  Label,
  Progress,
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { FileUp, X } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { importKey, LIST_KEY, useStatementImport } from '../../hooks/use-statements';
import {
  CANONICAL_COLUMNS,
  formatBytes,
  formatCount,
  guessSource,
  isActive,
  SOURCE_HELP,
} from '../../lib/statement-formats';
import { type StatementUpload, uploadStatement } from '../../lib/statements-api';
import { ImportProgress, LineCounts } from './import-facts';

/** The largest file, as people say it (4 GB: the contract counts in binary gigabytes). */
const MAX_TEXT = `${MAX_STATEMENT_BYTES / 1024 ** 3} GB`;

type Sent = { id: string; fileName: string; duplicate: boolean; importedOn: string };

/**
 * 'Import a statement': the file and its format, then two bars — the bytes going up (XMLHttpRequest), and
 * the import on the server (polled every second) with its line counts as they grow. The same file sent
 * twice is recognised by the server and nothing changes: the earlier import opens instead.
 */
export function UploadCard({ onOpen }: { onOpen: (id: string) => void }) {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useRef<StatementUpload | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState<StatementSource>('omni');
  const [guessed, setGuessed] = useState(false);
  const [sending, setSending] = useState<ByteProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<Sent | null>(null);
  const [columnsOpen, setColumnsOpen] = useState(false);
  const current = useStatementImport(sent && !sent.duplicate ? sent.id : null);
  const busy = sending !== null;

  function pick(picked: File | null) {
    setFile(picked);
    setError(null);
    const guess = picked ? guessSource(picked.name) : null;
    if (guess) setSource(guess);
    setGuessed(guess !== null);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setError('Choose the statement file to import.');
      return;
    }
    if (file.size === 0) {
      setError(`${file.name} is empty.`);
      return;
    }
    if (file.size > MAX_STATEMENT_BYTES) {
      setError(`${file.name} is ${formatBytes(file.size)}; an import takes at most ${MAX_TEXT}.`);
      return;
    }
    setError(null);
    setSent(null);
    setSending({ loaded: 0, total: file.size, percent: 0 });
    upload.current = uploadStatement(file, source, setSending);
    try {
      const accepted = await upload.current.done;
      queryClient.setQueryData(importKey(accepted.id), accepted.import);
      setSent({
        id: accepted.id,
        fileName: accepted.import.fileName || file.name,
        duplicate: accepted.duplicate,
        importedOn: accepted.import.createdAt,
      });
      setFile(null);
      setGuessed(false);
      if (fileInput.current) fileInput.current.value = '';
      await queryClient.invalidateQueries({ queryKey: LIST_KEY });
      if (accepted.duplicate) onOpen(accepted.id);
    } catch (failure) {
      // The file stays chosen, so the admin can pick another format and send it again.
      setError(
        failure instanceof Error && failure.message ? failure.message : 'The statement could not be sent.',
      );
    } finally {
      upload.current = null;
      setSending(null);
    }
  }

  const item = current.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Import a statement</CardTitle>
        <CardDescription>
          A store's sales report. Each line is matched to an Omni recording by its ISRC, else to a release by
          its UPC; lines that match nothing wait in the unmatched queue below.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="space-y-5" aria-busy={busy}>
          <div className="grid gap-5 md:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="statement-file">Statement file *</Label>
              <Input
                id="statement-file"
                ref={fileInput}
                type="file"
                accept=".tsv,.csv,.txt,.gz"
                disabled={busy}
                aria-required="true"
                onChange={(event) => pick(event.target.files?.[0] ?? null)}
              />
              <p className="text-xs text-muted-foreground">
                {file
                  ? `${file.name} · ${formatBytes(file.size)}`
                  : `.tsv, .csv or gzipped, up to ${MAX_TEXT}.`}
              </p>
            </div>
            <div className="space-y-2">
              <Label htmlFor="statement-source">Format *</Label>
              <Select
                value={source}
                onValueChange={(value) => {
                  setSource(value as StatementSource);
                  setGuessed(false);
                }}
                disabled={busy}
              >
                <SelectTrigger id="statement-source" aria-describedby="statement-source-help">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {STATEMENT_SOURCES.map((s) => (
                    <SelectItem key={s.value} value={s.value}>
                      {s.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              {guessed ? (
                <p className="text-xs text-muted-foreground" data-testid="source-guessed">
                  Chosen from the file's name (DSR_…).
                </p>
              ) : null}
            </div>
          </div>
          <div id="statement-source-help" className="rounded-md border bg-muted/40 p-3 text-sm">
            <p data-testid="source-help">{SOURCE_HELP[source]}</p>
            <p className="mt-1 text-muted-foreground">
              {source === 'omni' ? 'What each column holds: ' : 'Each line is read into '}
              <button
                type="button"
                className="font-medium text-primary underline underline-offset-4 hover:no-underline"
                aria-expanded={columnsOpen}
                aria-controls="canonical-columns"
                onClick={() => setColumnsOpen((open) => !open)}
              >
                the canonical CSV's columns
              </button>
              .
            </p>
            {columnsOpen ? (
              <dl
                id="canonical-columns"
                className="mt-3 grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[auto_1fr]"
                aria-label="The canonical CSV's columns"
              >
                {CANONICAL_COLUMNS.map((column) => (
                  <div key={column.name} className="contents">
                    <dt className="font-mono font-medium">{column.name}</dt>
                    <dd className="mb-1 text-muted-foreground sm:mb-0">{column.holds}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </div>
          {error ? (
            <p role="alert" className="text-sm font-medium text-destructive" data-testid="upload-error">
              {error}
            </p>
          ) : null}
          {sending ? (
            <div className="space-y-1.5" role="status" data-testid="upload-progress">
              <div className="flex items-baseline justify-between gap-2 text-sm">
                <span className="font-medium">
                  {sending.loaded >= sending.total
                    ? 'Sent; waiting for the server…'
                    : `Uploading… ${sending.percent}%`}
                </span>
                <span className="text-xs text-muted-foreground tabular-nums">
                  {formatBytes(sending.loaded)} of {formatBytes(sending.total)}
                </span>
              </div>
              <Progress value={sending.percent} aria-label="Upload progress" />
            </div>
          ) : null}
          {sent?.duplicate ? (
            <p
              role="status"
              className="rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm"
              data-testid="duplicate"
            >
              <span className="font-medium">{sent.fileName}:</span> Already imported on{' '}
              {formatTable(sent.importedOn)}; nothing changed.
            </p>
          ) : null}
          {sent && !sent.duplicate && item ? (
            <div className="space-y-2 rounded-md border p-3" data-testid="current-import">
              <p className="text-sm">
                <span className="font-medium">{sent.fileName}</span>
                {isActive(item.state) ? null : item.state === 'refused' ? (
                  <span className="text-destructive"> was refused; nothing was imported.</span>
                ) : (
                  <span> — import done: {formatCount(item.lines.total)} lines.</span>
                )}
              </p>
              {isActive(item.state) ? (
                <ImportProgress item={item} label="Import progress" />
              ) : item.state === 'refused' ? (
                <p className="text-sm">{item.refusal}</p>
              ) : (
                <LineCounts item={item} />
              )}
              <Button type="button" variant="link" className="h-auto p-0" onClick={() => onOpen(sent.id)}>
                Open its details
              </Button>
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              <FileUp aria-hidden="true" />
              {busy ? 'Sending…' : 'Import statement'}
            </Button>
            {busy ? (
              <Button type="button" variant="outline" onClick={() => upload.current?.cancel()}>
                <X aria-hidden="true" />
                Cancel
              </Button>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
