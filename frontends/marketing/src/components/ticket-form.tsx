import { Button, Input, Label, Textarea, toast } from '@omni/ui';
import { type FormEvent, useRef, useState } from 'react';
import { SUPPORT_CATEGORIES } from '../content/support-docs';

type Field = 'subject' | 'category' | 'message';
const EMPTY: Record<Field, string> = { subject: '', category: '', message: '' };
const MESSAGES: Record<Field, string> = {
  subject: 'Subject is required',
  category: 'Choose a category',
  message: 'Message is required',
};

/**
 * The support ticket (spec §5): subject, category and message are required. Submitting confirms
 * and clears the form; like the spec's product it sends nothing yet (there is no ticket service).
 */
export function TicketForm() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const refs = {
    subject: useRef<HTMLInputElement>(null),
    category: useRef<HTMLSelectElement>(null),
    message: useRef<HTMLTextAreaElement>(null),
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    for (const field of Object.keys(EMPTY) as Field[]) {
      if (!values[field].trim()) found[field] = MESSAGES[field];
    }
    setErrors(found);
    const first = (Object.keys(EMPTY) as Field[]).find((field) => found[field]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    toast.success('Ticket submitted', { description: 'We’ll respond within 1 business day.' });
    setValues(EMPTY);
  };

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const a11y = (field: Field) => ({
    id: `ticket-${field}`,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `ticket-${field}-error` : undefined,
    'aria-required': true,
  });
  const error = (field: Field) =>
    errors[field] ? (
      <p id={`ticket-${field}-error`} className="text-sm text-destructive">
        {errors[field]}
      </p>
    ) : null;

  return (
    <form aria-labelledby="ticket-title" noValidate onSubmit={onSubmit} className="grid gap-5">
      <div className="grid gap-2">
        <Label htmlFor="ticket-subject">Subject</Label>
        <Input ref={refs.subject} {...a11y('subject')} value={values.subject} onChange={set('subject')} />
        {error('subject')}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="ticket-category">Category</Label>
        <select
          ref={refs.category}
          {...a11y('category')}
          value={values.category}
          onChange={set('category')}
          className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive"
        >
          <option value="">Choose a category…</option>
          {SUPPORT_CATEGORIES.map((category) => (
            <option key={category.id} value={category.id}>
              {category.label}
            </option>
          ))}
        </select>
        {error('category')}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="ticket-message">Message</Label>
        <Textarea
          ref={refs.message}
          {...a11y('message')}
          rows={6}
          value={values.message}
          onChange={set('message')}
        />
        {error('message')}
      </div>
      <div>
        <Button type="submit">Submit ticket</Button>
      </div>
    </form>
  );
}
