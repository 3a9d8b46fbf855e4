// The two fields that choose a password (sign-up and reset): the hint states the contract's rule, so the
// screens cannot drift from what the server enforces.
import { MIN_PASSWORD_LENGTH } from '@omni/proto/api';
import { FormField } from '@omni/ui';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';

interface NewPasswordValues {
  password: string;
  confirmPassword: string;
}

export function NewPasswordFields<V extends NewPasswordValues>({
  register,
  errors,
  labels,
}: {
  register: UseFormRegister<V>;
  errors: FieldErrors<V>;
  labels: { password: string; confirm: string };
}) {
  // The form's values always hold these two fields; react-hook-form's path types cannot see that generically.
  const reg = register as unknown as UseFormRegister<NewPasswordValues>;
  const errs = errors as FieldErrors<NewPasswordValues>;
  return (
    <>
      <FormField
        label={labels.password}
        type="password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        error={errs.password?.message}
        {...reg('password')}
      />
      <FormField
        label={labels.confirm}
        type="password"
        autoComplete="new-password"
        error={errs.confirmPassword?.message}
        {...reg('confirmPassword')}
      />
    </>
  );
}
