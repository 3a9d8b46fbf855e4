import { Button, sendMagicLink, toast } from '@omni/ui';
import { useState } from 'react';
import { errorMessage } from '../lib/error-message';

interface MagicLinkButtonProps {
  /** Reads the email field at click time. */
  getEmail: () => string;
  /** Where the emailed link signs the user in (spec: the page it was requested from). */
  redirectTo: string;
  className?: string;
}

/** 'Send Magic Link': emails a single-use sign-in link for the address typed in the form. */
export function MagicLinkButton({ getEmail, redirectTo, className }: MagicLinkButtonProps) {
  const [sending, setSending] = useState(false);

  async function onClick() {
    const email = getEmail().trim();
    if (!email) {
      toast.error('Enter email');
      return;
    }
    setSending(true);
    try {
      toast.success(await sendMagicLink(email, redirectTo));
    } catch (error) {
      toast.error(errorMessage(error, 'Could not send the magic link. Please try again.'));
    } finally {
      setSending(false);
    }
  }

  return (
    <Button type="button" variant="secondary" className={className} onClick={onClick} disabled={sending}>
      {sending ? 'Sending…' : 'Send Magic Link'}
    </Button>
  );
}
