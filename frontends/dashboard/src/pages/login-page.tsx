import { zodResolver } from '@hookform/resolvers/zod';
import { Button, FormField, resendVerification, signInWithPassword, toast } from '@omni/ui';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout, Divider } from '../components/auth-layout';
import { DevMailboxHint } from '../components/dev-mailbox-hint';
import { GOOGLE_NOT_SET_UP, GoogleButton } from '../components/google-button';
import { MagicLinkButton } from '../components/magic-link-button';
import { RedirectIfSignedIn } from '../components/session-gates';
import { type LoginValues, loginSchema } from '../lib/auth-schemas';
import { errorMessage } from '../lib/error-message';

/** What the sign-up page hands over when it sends a new user here. */
interface LoginLocationState {
  email?: string;
  signedUp?: boolean;
}

/** What the Google callback's `/login?error=<code>` means (services/gateway/src/http/identity/google-sign-in.ts). */
const GOOGLE_ERRORS: Record<string, { title: string; description: string }> = {
  google_cancelled: {
    title: 'Google sign-in cancelled',
    description: 'You did not finish signing in with Google. Try again, or sign in another way.',
  },
  google_expired: {
    title: 'Google sign-in expired',
    description: 'That sign-in took too long or was started in another window. Please try again.',
  },
  google_failed: {
    title: 'Google sign-in failed',
    description: 'Something went wrong while signing in with Google. Please try again.',
  },
  email_not_confirmed: {
    title: 'Email not confirmed',
    description: 'Google did not confirm this email address. Confirm it with Google, then try again.',
  },
  // Reached from an old or typed-in /api/auth/google link: the button itself checks first.
  google_not_configured: { title: 'Google sign-in unavailable', description: GOOGLE_NOT_SET_UP },
};

/** The sign-in form's toasts replace one another: its latest outcome is the one that counts. */
const FORM_TOAST = 'login-form';

/** Shows the toast for `?error=` once, then drops it from the address bar (a reload must not repeat it). */
function useGoogleErrorToast() {
  const [params, setParams] = useSearchParams();
  const code = params.get('error');
  // React's development double effects must not show the toast twice.
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!code || shown.current === code) return;
    shown.current = code;
    const known = GOOGLE_ERRORS[code] ?? GOOGLE_ERRORS.google_failed;
    if (known) toast.error(known.title, { description: known.description });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [code, setParams]);
}

function LoginForm() {
  const navigate = useNavigate();
  const handover = (useLocation().state ?? {}) as LoginLocationState;
  useGoogleErrorToast();
  const [needsConfirmation, setNeedsConfirmation] = useState(false);
  const [resending, setResending] = useState(false);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: handover.email ?? '', password: '' },
  });

  async function onSubmit(values: LoginValues) {
    try {
      await signInWithPassword(values);
      toast.success('Welcome back!', { id: FORM_TOAST, announces: '/app' });
      navigate('/app', { replace: true });
    } catch (error) {
      const message = errorMessage(error, 'Unable to sign in.');
      if (/confirm/i.test(message)) {
        setNeedsConfirmation(true);
        toast.error('Email not confirmed', {
          id: FORM_TOAST,
          description: 'Please confirm your email. You can resend the verification email below.',
        });
      } else {
        toast.error(message, { id: FORM_TOAST });
      }
    }
  }

  async function onResend() {
    const email = getValues('email').trim();
    if (!email) {
      toast.error('Enter email first', {
        id: FORM_TOAST,
        description: 'Type your email above so we can resend the link.',
      });
      return;
    }
    setResending(true);
    try {
      toast.success(await resendVerification(email), { id: FORM_TOAST });
    } catch (error) {
      toast.error(errorMessage(error, 'Could not resend the verification email.'), { id: FORM_TOAST });
    } finally {
      setResending(false);
    }
  }

  return (
    <>
      {handover.signedUp ? (
        <p className="mb-4 rounded-md bg-muted px-3 py-2 text-sm" role="status">
          Check your email for the verification link, then sign in.
        </p>
      ) : null}
      <form className="space-y-4" onSubmit={handleSubmit(onSubmit)} noValidate>
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <div className="flex justify-end">
          <Link
            to="/forgot-password"
            className="text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Signing in…' : 'Sign In'}
        </Button>
        {needsConfirmation ? (
          <Button type="button" variant="outline" className="w-full" onClick={onResend} disabled={resending}>
            {resending ? 'Sending…' : 'Resend verification email'}
          </Button>
        ) : null}
      </form>
      <Divider />
      <div className="space-y-3">
        <GoogleButton />
        <MagicLinkButton className="w-full" redirectTo="/app" getEmail={() => getValues('email')} />
        <p className="text-center text-xs text-muted-foreground">
          No password needed: we email you a one-time sign-in link for the address above.
        </p>
      </div>
    </>
  );
}

export default function LoginPage() {
  return (
    <RedirectIfSignedIn>
      <AuthLayout
        title="Sign in"
        description="Welcome back. Sign in to manage your releases."
        footer={
          <>
            <p>
              New to Omni?{' '}
              <Link to="/signup" className="font-medium text-primary underline-offset-4 hover:underline">
                Create account
              </Link>
            </p>
            <DevMailboxHint />
          </>
        }
      >
        <LoginForm />
      </AuthLayout>
    </RedirectIfSignedIn>
  );
}
