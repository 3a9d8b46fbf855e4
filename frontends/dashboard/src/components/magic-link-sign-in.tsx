import { Button, FormField, Spinner, useSession } from '@omni/ui';
import { useId, useState } from 'react';
import { signOutWithToast } from '../lib/sign-out';
import { MagicLinkButton } from './magic-link-button';

/**
 * Who is signed in, and the magic-link sign-in whose emailed link brings the user back to `redirectTo`
 * (the page it was asked from, query included), with 'Sign out'. Used by /uploader and /upload?token=.
 */
export function MagicLinkSignIn({
  redirectTo,
  title = 'Account',
  description,
}: {
  redirectTo: string;
  title?: string;
  /** What the emailed link does, said before anyone asks for it (a contributor may have no account). */
  description?: string;
}) {
  const { status, session } = useSession();
  const [email, setEmail] = useState('');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-lg border bg-background p-6">
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {description ? (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="magic-link-explainer">
          {description}
        </p>
      ) : null}
      <div className="mt-2 text-sm" data-testid="uploader-session">
        {status === 'loading' ? (
          <Spinner label="Checking your session…" />
        ) : session ? (
          <p className="break-words">
            Signed in as <span className="font-medium">{session.user.email}</span>
          </p>
        ) : (
          <p className="text-muted-foreground">Not signed in</p>
        )}
      </div>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <FormField
          className="flex-1"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <MagicLinkButton getEmail={() => email} redirectTo={redirectTo} />
        <Button variant="outline" onClick={() => signOutWithToast()} disabled={!session}>
          Sign out
        </Button>
      </div>
    </section>
  );
}
