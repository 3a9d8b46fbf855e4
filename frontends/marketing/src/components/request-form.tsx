import { AUTH_MESSAGES } from '@omni/proto/api';
import { Button, Input, Label, Textarea } from '@omni/ui';
import { type FormEvent, useId, useState } from 'react';

export interface RequestField {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'date' | 'textarea' | 'select';
  required?: boolean;
  options?: readonly string[];
  autoComplete?: string;
  hint?: string;
}

interface RequestFormProps {
  /** Names the form for screen readers. */
  title: string;
  fields: readonly RequestField[];
  /** Who receives the request, and the email's subject. */
  to: string;
  subject: string;
  submitLabel: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A request (demo booking, DPA, sales enquiry) sent as an email from the visitor's own mail app:
 * Omni has no inbox API yet, and an email the visitor sends themselves is honest about where the
 * request goes and leaves them a copy. Fields are checked first; the email is composed from them.
 */
export function RequestForm({ title, fields, to, subject, submitLabel }: RequestFormProps) {
  const formId = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState(false);

  const validate = () => {
    const found: Record<string, string> = {};
    for (const field of fields) {
      const value = values[field.name]?.trim() ?? '';
      if (field.required && !value) found[field.name] = `${field.label} is required`;
      else if (field.type === 'email' && value && !EMAIL.test(value))
        found[field.name] = AUTH_MESSAGES.invalidEmail;
    }
    return found;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    const first = fields.find((field) => found[field.name]);
    if (first) {
      document.getElementById(`${formId}-${first.name}`)?.focus();
      return;
    }
    const body = fields.map((field) => `${field.label}: ${values[field.name]?.trim() || '—'}`).join('\n');
    window.location.href = `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
    setSent(true);
  };

  const set = (name: string, value: string) => setValues((current) => ({ ...current, [name]: value }));

  return (
    <form aria-label={title} noValidate onSubmit={onSubmit} className="grid gap-5">
      {fields.map((field) => {
        const id = `${formId}-${field.name}`;
        const error = errors[field.name];
        const describedBy = [error ? `${id}-error` : '', field.hint ? `${id}-hint` : '']
          .filter(Boolean)
          .join(' ');
        const common = {
          id,
          name: field.name,
          value: values[field.name] ?? '',
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy || undefined,
          'aria-required': field.required || undefined,
        };
        return (
          <div key={field.name} className="grid gap-2">
            <Label htmlFor={id}>
              {field.label}
              {field.required ? (
                <span aria-hidden="true"> *</span>
              ) : (
                <span className="text-muted-foreground"> (optional)</span>
              )}
            </Label>
            {field.type === 'textarea' ? (
              <Textarea {...common} rows={5} onChange={(e) => set(field.name, e.target.value)} />
            ) : field.type === 'select' ? (
              <select
                {...common}
                onChange={(e) => set(field.name, e.target.value)}
                className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive"
              >
                <option value="">Choose…</option>
                {field.options?.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <Input
                {...common}
                type={field.type ?? 'text'}
                autoComplete={field.autoComplete}
                onChange={(e) => set(field.name, e.target.value)}
              />
            )}
            {field.hint ? (
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {field.hint}
              </p>
            ) : null}
            {error ? (
              <p id={`${id}-error`} className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit">{submitLabel}</Button>
        <p className="text-sm text-muted-foreground">
          Opens your email app with the request addressed to{' '}
          <a className="underline" href={`mailto:${to}`}>
            {to}
          </a>
          .
        </p>
      </div>
      {sent ? (
        <p role="status" className="rounded-md bg-primary/10 p-3 text-sm">
          Your email app should now show the request, ready to send. Nothing opened? Write to {to} directly.
        </p>
      ) : null}
    </form>
  );
}
