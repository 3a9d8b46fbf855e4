import { type ComponentProps, forwardRef, type ReactNode, useId } from 'react';
import { Input } from './input';
import { Label } from './label';

export interface FormFieldProps extends ComponentProps<'input'> {
  label: ReactNode;
  /** The validation message shown under the field (and announced with it). */
  error?: string | undefined;
  /** A hint under the field, e.g. the password rules. */
  hint?: ReactNode;
}

/**
 * A labelled input with its hint and validation message tied to it (aria-describedby), so screen
 * readers read the message with the field. Works with react-hook-form's `register()` spread.
 */
export const FormField = forwardRef<HTMLInputElement, FormFieldProps>(
  ({ id, label, error, hint, className, ...props }, ref) => {
    const autoId = useId();
    const inputId = id ?? autoId;
    const hintId = hint ? `${inputId}-hint` : undefined;
    const errorId = error ? `${inputId}-error` : undefined;
    const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
    return (
      <div className={className ? `space-y-2 ${className}` : 'space-y-2'}>
        <Label htmlFor={inputId}>{label}</Label>
        <Input
          ref={ref}
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...props}
        />
        {hint ? (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} className="text-sm font-medium text-destructive" data-testid="field-error">
            {error}
          </p>
        ) : null}
      </div>
    );
  },
);
FormField.displayName = 'FormField';
