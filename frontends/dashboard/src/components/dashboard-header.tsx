import { Button, type SessionState } from '@omni/ui';
import { LayoutPanelLeft, LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { signOutWithToast } from '../lib/sign-out';
import { SiteLogo } from './site-logo';

interface DashboardHeaderProps {
  session: NonNullable<SessionState['session']>;
  /** The 'Pro' badge for subscribers (the dashboard asks billing). */
  badge?: ReactNode;
}

/** /app header: logo, the OMNI CMS for administrators, who is signed in (display name, else email), sign-out. */
export function DashboardHeader({ session, badge }: DashboardHeaderProps) {
  const navigate = useNavigate();
  const { displayName } = session.profile;
  const { email } = session.user;
  return (
    <header className="border-b bg-background">
      <div className="container flex h-16 items-center justify-between gap-4">
        <SiteLogo />
        <div className="flex min-w-0 items-center gap-3">
          {/* Only administrators may open the CMS (its layout and API check too): artists see no link. */}
          {session.user.roles.includes('admin') ? (
            <Button asChild variant="ghost" size="sm">
              <Link to="/admin/uploads">
                <LayoutPanelLeft aria-hidden="true" />
                OMNI CMS
              </Link>
            </Button>
          ) : null}
          {badge}
          <div className="min-w-0 text-right leading-tight" data-testid="signed-in-as">
            <p className="truncate text-sm font-medium">{displayName ?? email}</p>
            {displayName ? <p className="truncate text-xs text-muted-foreground">{email}</p> : null}
          </div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => signOutWithToast(() => navigate('/', { replace: true }))}
          >
            <LogOut aria-hidden="true" />
            Sign out
          </Button>
        </div>
      </div>
    </header>
  );
}
