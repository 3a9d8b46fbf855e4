import { type ImportPlaysResponse, PLAY_SERVICE_TYPES } from '@omni/proto/api';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Label } from '@omni/ui';
import { Upload } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { importPlays, PlaysFileTooLarge } from '../lib/finder-api';
import { formatCount } from '../lib/format';
import { scanFailure } from '../lib/scan-failure';

type Outcome = { ok: true; imported: ImportPlaysResponse } | { ok: false; message: string };

const plural = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

function playsFailure(error: unknown): string {
  if (error instanceof PlaysFileTooLarge) return error.message;
  return scanFailure(error);
}

/**
 * The play counts the estimates are made from (finder.md: a distributor's statements hold no
 * non-interactive plays, so the artist supplies them). The server's refusal names the bad line.
 */
export function PlaysUpload() {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setOutcome({ ok: false, message: 'Choose a CSV file of play counts first.' });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ ok: true, imported: await importPlays(file) });
    } catch (error) {
      console.error('Play counts upload failed', error);
      setOutcome({ ok: false, message: playsFailure(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="plays-upload">
      <CardHeader>
        <CardTitle>Play Counts</CardTitle>
        <CardDescription>
          Estimates need non-interactive plays (internet radio), which store statements do not hold. Upload a
          CSV with the columns <code>isrc,territory,plays</code> and optionally <code>year</code> and{' '}
          <code>service_type</code>, then run the scan again.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="text-sm" data-testid="service-types">
          <p id={`${inputId}-service-types`}>
            <code>service_type</code> is one of these (leave it empty for <code>non_subscription</code>):
          </p>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-muted-foreground">
            {PLAY_SERVICE_TYPES.map(({ value, meaning }) => (
              <div key={value} className="contents">
                <dt>
                  <code className="text-foreground">{value}</code>
                </dt>
                <dd>{meaning}</dd>
              </div>
            ))}
          </dl>
        </div>
        <form className="space-y-3" onSubmit={(event) => void submit(event)}>
          <div className="space-y-2">
            <Label htmlFor={inputId}>Play-count CSV</Label>
            <Input
              id={inputId}
              aria-describedby={`${inputId}-service-types`}
              type="file"
              accept=".csv,text/csv"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setOutcome(null);
              }}
            />
          </div>
          <Button type="submit" variant="secondary" disabled={busy} aria-busy={busy}>
            <Upload aria-hidden="true" />
            {busy ? 'Uploading...' : 'Upload Play Counts'}
          </Button>
          {outcome?.ok ? (
            <p role="status" className="text-sm text-primary">
              Imported {plural(outcome.imported.rows, 'row')} for{' '}
              {plural(outcome.imported.recordings, 'recording')}. Run the scan again to include them.
            </p>
          ) : null}
          {outcome && !outcome.ok ? (
            // The refusal names its bad lines one per line.
            <p role="alert" className="whitespace-pre-line break-words text-sm text-destructive">
              {outcome.message}
            </p>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}
