import { cn } from '@omni/ui';
import { Disc3, FileSpreadsheet, Film, Link2, Music, ShieldCheck, Upload } from 'lucide-react';
import { Tooltip } from 'radix-ui';
import { NavLink } from 'react-router';

const GROUPS = [
  {
    label: 'Admin',
    links: [
      { to: '/admin/uploads', label: 'Uploads', Icon: Upload },
      { to: '/admin/links', label: 'Contributor Links', Icon: Link2 },
      { to: '/admin/moderation', label: 'Moderation', Icon: ShieldCheck },
      { to: '/admin/releases', label: 'Release Review', Icon: Disc3 },
      { to: '/admin/statements', label: 'Statements', Icon: FileSpreadsheet },
    ],
  },
  {
    label: 'Public Pages',
    links: [
      { to: '/music', label: 'Music', Icon: Music },
      { to: '/videos', label: 'Videos', Icon: Film },
    ],
  },
] as const;

interface AdminNavProps {
  /** Icons only (the collapsed 3rem rail): labels move into tooltips and the links' accessible names. */
  collapsed?: boolean;
  /** Called after a link is followed (the phone sheet closes). */
  onNavigate?: () => void;
}

/** The sidebar's two groups (spec: Admin layout). */
export function AdminNav({ collapsed = false, onNavigate }: AdminNavProps) {
  return (
    <Tooltip.Provider delayDuration={0}>
      <nav aria-label="CMS" className={cn('space-y-6', collapsed ? 'p-1.5' : 'p-3')}>
        {GROUPS.map((group) => (
          <div key={group.label}>
            <p
              className={cn(
                'px-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground',
                collapsed && 'sr-only',
              )}
            >
              {group.label}
            </p>
            <ul aria-label={group.label} className={cn('space-y-1', !collapsed && 'mt-2')}>
              {group.links.map(({ to, label, Icon }) => {
                const link = (
                  <NavLink
                    to={to}
                    onClick={onNavigate}
                    aria-label={collapsed ? label : undefined}
                    // A string, not NavLink's function form: the tooltip trigger (Radix Slot) merges class
                    // names as strings. NavLink marks the current page with aria-current="page".
                    className={cn(
                      'flex items-center gap-2 rounded-md text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[current=page]:bg-accent aria-[current=page]:font-medium',
                      collapsed ? 'h-9 w-9 justify-center' : 'px-2 py-2',
                    )}
                  >
                    <Icon className="h-4 w-4 shrink-0" aria-hidden="true" />
                    {collapsed ? null : label}
                  </NavLink>
                );
                return (
                  <li key={to}>
                    {collapsed ? (
                      <Tooltip.Root>
                        <Tooltip.Trigger asChild>{link}</Tooltip.Trigger>
                        <Tooltip.Portal>
                          <Tooltip.Content
                            side="right"
                            sideOffset={6}
                            className="z-50 rounded-md bg-foreground px-2 py-1 text-xs text-background shadow"
                          >
                            {label}
                          </Tooltip.Content>
                        </Tooltip.Portal>
                      </Tooltip.Root>
                    ) : (
                      link
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
    </Tooltip.Provider>
  );
}
