import { useDocumentTitle } from '@omni/ui';
import type { ReactNode } from 'react';
import { SiteLogo } from './site-logo';
import '../styles.css';

interface AuthLayoutProps {
  title: string;
  description: ReactNode;
  children: ReactNode;
  /** Under the card: links to the other auth screens. */
  footer?: ReactNode;
}

/** The frame of the sign-in, sign-up and password screens: logo, a centred card, links below. */
export function AuthLayout({ title, description, children, footer }: AuthLayoutProps) {
  useDocumentTitle(title);
  return (
    <div className="flex min-h-screen flex-col bg-muted/30">
      <header className="border-b bg-background">
        <div className="container flex h-14 items-center">
          <SiteLogo />
        </div>
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-12 sm:py-16">
        <div className="w-full max-w-md">
          <div className="rounded-lg border bg-card p-6 shadow-sm sm:p-8">
            <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            <p className="mt-1 text-sm text-muted-foreground">{description}</p>
            <div className="mt-6">{children}</div>
          </div>
          {footer ? (
            <div className="mt-6 space-y-2 text-center text-sm text-muted-foreground">{footer}</div>
          ) : null}
        </div>
      </main>
    </div>
  );
}

/** "or" between the password form and the other ways in. */
export function Divider({ label = 'or' }: { label?: string }) {
  return (
    <div className="my-6 flex items-center gap-3 text-xs uppercase text-muted-foreground" aria-hidden="true">
      <span className="h-px flex-1 bg-border" />
      {label}
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}
