import { zodResolver } from '@hookform/resolvers/zod';
import { Button, FormField, signUp, toast } from '@omni/ui';
import { type FieldErrors, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { AuthLayout, Divider } from '../components/auth-layout';
import { DevMailboxHint } from '../components/dev-mailbox-hint';
import { GoogleButton } from '../components/google-button';
import { NewPasswordFields } from '../components/new-password-fields';
import { RedirectIfSignedIn } from '../components/session-gates';
import { firstErrorMessage, type SignupValues, signupSchema } from '../lib/auth-schemas';
import { errorMessage } from '../lib/error-message';

/** Spec section 9: the pause between 'Account created!' and the next screen. */
const REDIRECT_AFTER_SIGNUP_MS = 300;
const FIELD_ORDER = ['email', 'password', 'confirmPassword'] as const;
/** The form's toasts replace one another: 'Account created!' replaces the validation errors before it. */
const FORM_TOAST = 'signup-form';

function SignupForm() {
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignupValues>({
    resolver: zodResolver(signupSchema),
    defaultValues: { email: '', password: '', confirmPassword: '' },
  });

  async function onSubmit(values: SignupValues) {
    try {
      const message = await signUp({ email: values.email, password: values.password });
      toast.success(message, {
        id: FORM_TOAST,
        description: 'Check your email for the verification link.',
        announces: '/login',
      });
      // The account needs its email confirmed before it can sign in: continue on /login, with the
      // address filled in and a reminder to look for the mail.
      setTimeout(
        () => navigate('/login', { state: { email: values.email, signedUp: true } }),
        REDIRECT_AFTER_SIGNUP_MS,
      );
    } catch (error) {
      toast.error(errorMessage(error, 'Could not create the account. Please try again.'), { id: FORM_TOAST });
    }
  }

  // Spec section 5: the first message is shown under the toast title 'Validation error'.
  function onInvalid(invalid: FieldErrors<SignupValues>) {
    const first = firstErrorMessage(invalid, FIELD_ORDER);
    if (first) toast.error('Validation error', { id: FORM_TOAST, description: first });
  }

  return (
    <>
      <form className="space-y-4" onSubmit={handleSubmit(onSubmit, onInvalid)} noValidate>
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <NewPasswordFields
          register={register}
          errors={errors}
          labels={{ password: 'Password', confirm: 'Confirm password' }}
        />
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Creating account…' : 'Create account'}
        </Button>
      </form>
      <Divider />
      <GoogleButton />
    </>
  );
}

export default function SignupPage() {
  return (
    <RedirectIfSignedIn>
      <AuthLayout
        title="Create account"
        description="Join Omni and start distributing your music."
        footer={
          <>
            <p>
              Already have an account?{' '}
              <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
                Sign in
              </Link>
            </p>
            <DevMailboxHint />
          </>
        }
      >
        <SignupForm />
      </AuthLayout>
    </RedirectIfSignedIn>
  );
}
