import { Button, Card, CardContent, Label } from '@omni/ui';
import { RotateCcw } from 'lucide-react';
import { useId } from 'react';
import { type Analytics, type AnalyticsFilters, type FilterKey, withFilter } from '../../lib/analytics-api';
import { formatMonth } from '../../lib/analytics-format';
import { selectClass } from '../page-frame';

interface Option {
  value: string;
  label: string;
}

function FilterSelect({
  label,
  value,
  allLabel,
  options,
  onChange,
}: {
  label: string;
  value: string | undefined;
  allLabel: string;
  options: readonly Option[];
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  // A value from the address that the answer no longer offers stays chosen (and visible) until changed.
  const listed = !value || options.some((o) => o.value === value);
  return (
    <div className="min-w-0 space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className={selectClass}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">{allLabel}</option>
        {listed ? null : <option value={value}>{value}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

const keyed = (items: readonly { key: string; label: string }[]): Option[] =>
  items.map((item) => ({ value: item.key, label: item.label }));

/** Month range, store, territory, release and track; the choices are the answer's `filters`. */
export function AnalyticsFiltersCard({
  filters,
  options,
  onChange,
  busy,
}: {
  filters: AnalyticsFilters;
  options: Analytics['filters'] | undefined;
  /** An update of the filters as they are when it applies (two quick changes both count). */
  onChange: (update: (current: AnalyticsFilters) => AnalyticsFilters) => void;
  busy: boolean;
}) {
  const months = [...(options?.months ?? [])].sort();
  const set = (key: FilterKey, value: string | undefined) =>
    onChange((current) => withFilter(current, key, value, options?.tracks ?? []));
  const tracks = (options?.tracks ?? []).filter((t) => !filters.release || t.release === filters.release);
  const anySet = Object.keys(filters).length > 0;
  return (
    <Card>
      <CardContent className="px-4 pt-6 sm:px-6">
        <form
          aria-label="Filters"
          aria-busy={busy}
          onSubmit={(event) => event.preventDefault()}
          className="grid grid-cols-2 gap-4 lg:grid-cols-3 xl:grid-cols-6"
        >
          <FilterSelect
            label="From month"
            value={filters.from}
            allLabel="Earliest"
            options={months.map((m) => ({ value: m, label: formatMonth(m) }))}
            onChange={(v) => set('from', v)}
          />
          <FilterSelect
            label="To month"
            value={filters.to}
            allLabel="Latest"
            options={months.map((m) => ({ value: m, label: formatMonth(m) }))}
            onChange={(v) => set('to', v)}
          />
          <FilterSelect
            label="Store"
            value={filters.store}
            allLabel="All stores"
            options={keyed(options?.stores ?? [])}
            onChange={(v) => set('store', v)}
          />
          <FilterSelect
            label="Territory"
            value={filters.territory}
            allLabel="All territories"
            options={keyed(options?.territories ?? [])}
            onChange={(v) => set('territory', v)}
          />
          <FilterSelect
            label="Release"
            value={filters.release}
            allLabel="All releases"
            options={keyed(options?.releases ?? [])}
            onChange={(v) => set('release', v)}
          />
          <FilterSelect
            label="Track"
            value={filters.track}
            allLabel="All tracks"
            options={keyed(tracks)}
            onChange={(v) => set('track', v)}
          />
        </form>
        {anySet ? (
          <Button variant="ghost" size="sm" className="mt-3" onClick={() => onChange(() => ({}))}>
            <RotateCcw aria-hidden="true" />
            Clear filters
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
