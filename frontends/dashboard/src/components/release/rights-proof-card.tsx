// The artist's answer to a rights hold (issue 27): why the release is held, in plain words, without the
// other artist's name or release (admins see those), and a form to send a note and a file proving the
// rights. Each answer sent is listed, newest first; the file can be downloaded again.
import {
  type ReviewFinding,
  RIGHTS_PROOF_MAX_BYTES,
  RIGHTS_PROOF_MESSAGES,
  type RightsProofJson,
} from '@omni/proto/api';
import { Button, formatTable, Label, saveDownload, serverMessage, Textarea, toast } from '@omni/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { sendRightsProof } from '../../lib/rights-proof-api';

const ACCEPT = '.pdf,.png,.jpg,.jpeg,.txt,application/pdf,image/png,image/jpeg,text/plain';

interface RightsProofCardProps {
  releaseId: string;
  /** The held `fingerprint-match` findings (decision `hold`). */
  holds: ReviewFinding[];
  proofs: RightsProofJson[];
}

interface ProofForm {
  note: string;
  files: FileList | null;
}

/** "Track 2 “Name”" from the finding's own words: the artist's track, never the matched one. */
const trackOf = (f: ReviewFinding) => /^Track \d+ “[^”]*”/.exec(f.message)?.[0] ?? 'One of your tracks';

export function RightsProofCard({ releaseId, holds, proofs: initial }: RightsProofCardProps) {
  const [proofs, setProofs] = useState(initial);
  const form = useForm<ProofForm>({ defaultValues: { note: '', files: null } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ note, files }) => {
    const file = files?.[0];
    if (!file) return form.setError('files', { message: 'Choose a file.' });
    if (file.size > RIGHTS_PROOF_MAX_BYTES)
      return form.setError('files', { message: RIGHTS_PROOF_MESSAGES.tooLarge });
    try {
      const answer = await sendRightsProof(releaseId, note.trim(), file);
      setProofs(answer.proofs);
      form.reset();
      toast.success(answer.message);
    } catch (error) {
      toast.error(serverMessage(error) ?? 'Your proof could not be sent. Try again.');
    }
  });

  return (
    <section className="space-y-3 rounded-md border p-4" data-testid="rights-proof">
      <h3 className="font-semibold">Why this release is held</h3>
      {holds.map((f) => (
        <p key={f.message} className="text-sm">
          Another artist’s recording on Omni sounds the same as your master for{' '}
          {trackOf(f).replace(/^T/, 't')}. Omni holds the release until an admin checks that you hold the
          rights to it. If you do (you made it, licensed it or bought it), send your proof below: an admin
          reads it before deciding.
        </p>
      ))}
      <form className="space-y-3" onSubmit={submit} noValidate>
        <div className="space-y-1">
          <Label htmlFor="rights-proof-note">Your note</Label>
          <Textarea
            id="rights-proof-note"
            rows={4}
            maxLength={2000}
            placeholder="Say which rights you hold and how the file shows it."
            aria-invalid={errors.note ? true : undefined}
            {...form.register('note', {
              validate: (v) => v.trim().length > 0 || RIGHTS_PROOF_MESSAGES.noteRequired,
            })}
          />
          {errors.note ? <p className="text-sm text-destructive">{errors.note.message}</p> : null}
        </div>
        <div className="space-y-1">
          <Label htmlFor="rights-proof-file">
            Licence, contract, invoice or distribution agreement (PDF, PNG, JPEG or text, up to 10 MB)
          </Label>
          <input
            id="rights-proof-file"
            type="file"
            accept={ACCEPT}
            className="block text-sm"
            aria-invalid={errors.files ? true : undefined}
            {...form.register('files')}
          />
          {errors.files ? <p className="text-sm text-destructive">{errors.files.message}</p> : null}
        </div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Sending…' : 'Send proof of rights'}
        </Button>
      </form>
      {proofs.length > 0 ? (
        <div className="space-y-2">
          <h4 className="text-sm font-medium">What you sent</h4>
          <ul className="space-y-2" data-testid="rights-proofs-sent">
            {proofs.map((p) => (
              <li key={p.id} className="rounded border p-2 text-sm">
                <p className="text-muted-foreground">Sent {formatTable(p.submittedAt)}</p>
                <p className="whitespace-pre-wrap">{p.note}</p>
                <Button
                  type="button"
                  variant="link"
                  className="h-auto p-0"
                  onClick={() =>
                    saveDownload(p.downloadUrl, p.fileName).catch(() =>
                      toast.error('The file could not be downloaded.'),
                    )
                  }
                >
                  {p.fileName}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="text-xs text-muted-foreground">
        Questions about the hold? You can also open a ticket on the Support page.
      </p>
    </section>
  );
}
