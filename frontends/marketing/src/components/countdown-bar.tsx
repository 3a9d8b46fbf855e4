import { Button } from '@omni/ui';
import { X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_COUNTDOWN_SECONDS } from '../content/facts';
import { useInBrowser } from '../lib/use-in-browser';

export const COUNTDOWN_DESTINATIONS = [
  { to: '/signup', label: 'Go to Sign Up' },
  { to: '/pricing', label: 'View Pricing' },
  { to: '/app', label: 'Open Dashboard' },
] as const;

/**
 * `?countdown=N` (1–60) overrides the duration, so browser tests and demos need not wait 20 s.
 * Anything else is ignored.
 */
function durationOverride(params: URLSearchParams): number | undefined {
  const value = Number(params.get('countdown'));
  return Number.isInteger(value) && value >= 1 && value <= 60 ? value : undefined;
}

/**
 * The bottom bar that counts down and then opens the chosen destination (spec §2, §4). A timed
 * redirect must be controllable (WCAG 2.2.1): the visitor can change where it goes, go now with
 * 'Skip Now', or dismiss it. It holds still while the tab is hidden: nobody is sent away unseen.
 */
export function CountdownBar({ seconds = DEFAULT_COUNTDOWN_SECONDS }: { seconds?: number }) {
  const [params] = useSearchParams();
  const total = durationOverride(params) ?? seconds;
  const [remaining, setRemaining] = useState(total);
  const [destination, setDestination] = useState<string>(COUNTDOWN_DESTINATIONS[0].to);
  const [dismissed, setDismissed] = useState(false);
  const navigate = useNavigate();
  const selectId = useId();
  // Not in the page rendered at build time: without scripts it would count nothing and its buttons
  // would do nothing. It appears when the live page takes over.
  const inBrowser = useInBrowser();

  useEffect(() => {
    if (dismissed) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'hidden') return;
      setRemaining((value) => Math.max(0, value - 1));
    }, 1000);
    return () => clearInterval(timer);
  }, [dismissed]);

  useEffect(() => {
    if (remaining === 0 && !dismissed) navigate(destination);
  }, [remaining, dismissed, destination, navigate]);

  if (dismissed || !inBrowser) return null;
  const label = COUNTDOWN_DESTINATIONS.find((d) => d.to === destination)?.label ?? '';

  return (
    <section
      aria-label="Next step"
      data-testid="countdown-bar"
      className="fixed inset-x-0 bottom-0 z-30 border-t bg-background/95 shadow-[0_-4px_12px_rgba(0,0,0,0.06)] backdrop-blur"
    >
      <div className="container flex flex-wrap items-center gap-x-4 gap-y-2 py-3 text-sm">
        <p className="min-w-0 flex-1 basis-full sm:basis-auto">
          <span className="font-medium">{label}</span> in{' '}
          <span className="font-semibold tabular-nums" data-testid="countdown-seconds">
            {remaining}
          </span>{' '}
          s
        </p>
        <label htmlFor={selectId} className="sr-only">
          Where to go next
        </label>
        <select
          id={selectId}
          value={destination}
          onChange={(event) => setDestination(event.target.value)}
          className="h-9 rounded-md border border-input bg-background px-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {COUNTDOWN_DESTINATIONS.map((option) => (
            <option key={option.to} value={option.to}>
              {option.label}
            </option>
          ))}
        </select>
        <Button size="sm" onClick={() => navigate(destination)}>
          Skip Now
        </Button>
        <Button
          size="icon"
          variant="ghost"
          className="h-9 w-9"
          aria-label="Dismiss countdown"
          onClick={() => setDismissed(true)}
        >
          <X aria-hidden="true" />
        </Button>
      </div>
    </section>
  );
}
