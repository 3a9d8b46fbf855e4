import { zodResolver } from '@hookform/resolvers/zod';
import { Button, FormField, requestPasswordReset, resetPassword, Spinner, toast } from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout } from '../components/auth-layout';
import { DevMailboxHint } from '../components/dev-mailbox-hint';
import { NewPasswordFields } from '../components/new-password-fields';
import { resetLinkProblem } from '../lib/account-api';
import {
  type EmailOnlyValues,
  emailOnlySchema,
  type NewPasswordValues,
  newPasswordSchema,
} from '../lib/auth-schemas';
import { errorMessage } from '../lib/error-message';

const linkClass = 'font-medium text-primary underline-offset-4 hover:underline';

/** Step 1: ask for the email. The answer is the same whether or not an account exists. */
function RequestResetForm() {
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<EmailOnlyValues>({ resolver: zodResolver(emailOnlySchema), defaultValues: { email: '' } });

  async function onSubmit({ email }: EmailOnlyValues) {
    try {
      const message = await requestPasswordReset(email);
      setSentMessage(message);
      toast.success('Check your email', { id: 'reset-request-form', description: message });
    } catch (error) {
      toast.error(errorMessage(error, 'Could not send the reset link. Please try again.'), {
        id: 'reset-request-form',
      });
    }
  }

  return (
    <form className="space-y-4" onSubmit={handleSubmit(onSubmit)} noValidate>
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Sending…' : 'Send reset link'}
      </Button>
      {sentMessage ? (
        <p className="rounded-md bg-muted px-3 py-2 text-sm" role="status" data-testid="reset-requested">
          {sentMessage}
        </p>
      ) : null}
    </form>
  );
}

/** Step 2, from the emailed link (?reset=<token>): choose the new password. */
function NewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  async function onSubmit({ password }: NewPasswordValues) {
    try {
      // On the way to /login, where the new password is used: the toast says why.
      toast.success(await resetPassword(token, password), {
        id: 'new-password-form',
        announces: '/login',
      });
      navigate('/login', { replace: true });
    } catch (error) {
      setFailed(true);
      toast.error(errorMessage(error, 'Could not update the password. Please try again.'), {
        id: 'new-password-form',
      });
    }
  }

  return (
    <form className="space-y-4" onSubmit={handleSubmit(onSubmit)} noValidate>
      <NewPasswordFields
        register={register}
        errors={errors}
        labels={{ password: 'New password', confirm: 'Confirm new password' }}
      />
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Saving…' : 'Set new password'}
      </Button>
      {failed ? (
        <p className="text-center text-sm text-muted-foreground">
          Link not working?{' '}
          <Link to="/forgot-password" className={linkClass}>
            Request a new one
          </Link>
        </p>
      ) : null}
    </form>
  );
}

/**
 * The link is checked as the page opens (spec §3.11 of issue 21): a used or expired link says so at once
 * and offers a new one, instead of asking for a password twice and refusing it.
 */
function useResetLink(token: string | null) {
  return useQuery({
    queryKey: ['reset-link', token],
    queryFn: () => resetLinkProblem(token!),
    enabled: !!token,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('reset');
  const link = useResetLink(token);
  // A check that failed (network, server) leaves the form: the reset itself will say what is wrong.
  const problem = token && link.isSuccess ? link.data : null;
  const checking = !!token && link.isPending;
  const choosing = !!token && !problem;
  return (
    <AuthLayout
      title={
        problem ? 'This link no longer works' : choosing ? 'Choose a new password' : 'Reset your password'
      }
      description={
        problem
          ? problem
          : choosing
            ? 'Enter the new password for your account.'
            : 'Enter the email you signed up with and we will send you a link to choose a new password.'
      }
      footer={
        <>
          <p>
            Remembered it?{' '}
            <Link to="/login" className={linkClass}>
              Back to sign in
            </Link>
          </p>
          {choosing ? null : <DevMailboxHint />}
        </>
      }
    >
      {checking ? (
        <div className="flex justify-center py-6">
          <Spinner label="Checking your link…" />
        </div>
      ) : choosing ? (
        <NewPasswordForm key={token} token={token} />
      ) : (
        <RequestResetForm />
      )}
    </AuthLayout>
  );
}
