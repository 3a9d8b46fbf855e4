import { Spinner, useSession } from '@omni/ui';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { isSigningOut } from '../lib/sign-out';

function SessionLoading() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Spinner label="Checking your session…" />
    </div>
  );
}

/** /app and friends: wait for the session, then show the page or send a signed-out user to /login. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'loading') return <SessionLoading />;
  if (status === 'signed-out') return isSigningOut() ? null : <Navigate to="/login" replace />;
  return <>{children}</>;
}

/** /login and /signup: a signed-in user has nothing to do here and goes to /app. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'loading') return <SessionLoading />;
  if (status === 'signed-in') return <Navigate to="/app" replace />;
  return <>{children}</>;
}
