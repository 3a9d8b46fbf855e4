// The release time select both release forms show: 00:00 local time in each country (the stores' usual
// way, the default) or 00:00 in one time zone, everywhere at once (for a launch announced for one moment).
// The zones are the browser's own IANA list, the same names catalog checks.
import { useMemo } from 'react';
import { NativeSelect } from '../form-controls';

export const LOCAL_MIDNIGHT = '00:00 local time in each country';

/** How the release page says when the release starts. */
export const releaseTimeText = (zone: string | null | undefined) =>
  zone ? `00:00 ${zone.replaceAll('_', ' ')} time, everywhere at once` : LOCAL_MIDNIGHT;

function zones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  return [...new Set([...(current ? [current] : []), 'UTC', ...known])];
}

export function ReleaseTimeZone({
  value,
  disabled,
  onChange,
}: {
  value: string;
  disabled: boolean;
  onChange: (zone: string) => void;
}) {
  const options = useMemo(
    () => [
      { value: '', label: LOCAL_MIDNIGHT },
      ...zones(value).map((zone) => ({ value: zone, label: `00:00 in ${zone.replaceAll('_', ' ')}` })),
    ],
    [value],
  );
  return (
    <NativeSelect
      label="Release Time"
      value={value}
      options={options}
      disabled={disabled}
      onChange={onChange}
    />
  );
}
