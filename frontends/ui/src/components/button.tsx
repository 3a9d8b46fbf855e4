import type { VariantProps } from 'class-variance-authority';
import { Slot } from 'radix-ui';
import { type ComponentProps, forwardRef } from 'react';
import { cn } from '../lib/cn';
import { buttonVariants } from './button-variants';

export interface ButtonProps extends ComponentProps<'button'>, VariantProps<typeof buttonVariants> {
  /** Render the single child (e.g. a router Link) with button styling instead of a <button>. */
  asChild?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(
  ({ className, variant, size, asChild = false, type, ...props }, ref) => {
    if (asChild) {
      return <Slot.Root ref={ref} className={cn(buttonVariants({ variant, size, className }))} {...props} />;
    }
    return (
      <button
        ref={ref}
        // A bare <button> inside a form submits it; make that opt-in.
        type={type ?? 'button'}
        className={cn(buttonVariants({ variant, size, className }))}
        {...props}
      />
    );
  },
);
Button.displayName = 'Button';
