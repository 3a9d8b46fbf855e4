import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Spinner } from '@omni/ui';
import type { PlatformList } from '../../lib/releases-api';

interface PlatformPickerProps {
  platforms: PlatformList['platforms'] | undefined;
  loadError: string | null;
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  disabled: boolean;
}

/** Spec: 'Distribution Platforms' card with count, Select All, Clear and a scrolling checkbox grid. */
export function PlatformPicker({ platforms, loadError, selected, onChange, disabled }: PlatformPickerProps) {
  const total = platforms?.length ?? 0;
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    onChange(next);
  };
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Distribution Platforms</CardTitle>
          <CardDescription data-testid="platform-count">
            {selected.size} of {total} selected
            {selected.size === 0 && total > 0 ? ' (none chosen: the release goes to all of them)' : ''}
          </CardDescription>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={disabled || !platforms}
            onClick={() => onChange(new Set(platforms?.map((platform) => platform.key)))}
          >
            Select All
          </Button>
          <Button variant="outline" size="sm" disabled={disabled} onClick={() => onChange(new Set())}>
            Clear
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {loadError ? (
          <p className="text-sm text-destructive" role="alert">
            Could not load the platform list: {loadError}
          </p>
        ) : !platforms ? (
          <Spinner label="Loading platforms…" />
        ) : (
          <fieldset
            className="grid max-h-72 grid-cols-2 gap-x-4 gap-y-2 overflow-y-auto rounded-md border p-3 sm:grid-cols-3 lg:grid-cols-4"
            aria-label="Distribution platforms"
            disabled={disabled}
          >
            {platforms.map((platform) => (
              <label key={platform.key} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-primary"
                  name="stores"
                  value={platform.key}
                  checked={selected.has(platform.key)}
                  onChange={(event) => toggle(platform.key, event.target.checked)}
                />
                <span className="truncate">{platform.name}</span>
              </label>
            ))}
          </fieldset>
        )}
      </CardContent>
    </Card>
  );
}
