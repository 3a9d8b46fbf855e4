import { useAuthProviders } from '../lib/use-auth-providers';

/**
 * On a single-machine install mails go to the dev mailbox instead of the internet; say where, so a
 * newcomer can click their verification or magic link. Hidden when the server sends real mail.
 */
export function DevMailboxHint() {
  const { data } = useAuthProviders();
  if (!data?.mailbox) return null;
  return (
    <p>
      Running Omni locally? Emails land in the{' '}
      <a href={data.mailbox} className="font-medium text-primary underline-offset-4 hover:underline">
        dev mailbox
      </a>
      .
    </p>
  );
}
