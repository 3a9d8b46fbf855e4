import type { Finding, ValueBasis } from '@omni/proto/api';
import { Badge } from '@omni/ui';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { formatCount, formatRate, formatShare, formatUsd } from '../lib/format';

/** The estimate's working, shown on demand next to the figure (finder.md: formula and assumptions). */

/**
 * The release page's editor, opened on the tab the first recommended action names ("… (Credits tab), …")
 * and on the finding's track.
 */
function fixLink(finding: Finding): string {
  const tab =
    finding.recommended_actions.map((a) => /\(([^()]+) tab\)/.exec(a)?.[1]).find(Boolean) ?? 'Basic Info';
  const query = new URLSearchParams({ edit: tab });
  if (finding.track_id) query.set('track', finding.track_id);
  return `/release/${encodeURIComponent(finding.release_id)}?${query}`;
}

function HowEstimated({ basis }: { basis: ValueBasis }) {
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer text-primary underline-offset-4 hover:underline">
        How this was estimated
      </summary>
      <div className="mt-2 space-y-2 rounded-md bg-muted/50 p-3">
        <p className="font-mono text-xs">{basis.formula}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">Plays</dt>
          <dd>{formatCount(basis.plays)}</dd>
          <dt className="text-muted-foreground">Rate per play</dt>
          <dd>{formatRate(basis.rate_per_play_usd)}</dd>
          <dt className="text-muted-foreground">Missing share</dt>
          <dd>{formatShare(basis.missing_share)}</dd>
          <dt className="text-muted-foreground">Admin fee</dt>
          <dd>{formatShare(basis.admin_fee)}</dd>
          <dt className="text-muted-foreground">Years</dt>
          <dd>{formatCount(basis.years)}</dd>
        </dl>
        {basis.assumptions.length > 0 ? (
          <ul className="list-disc space-y-1 pl-5 text-muted-foreground">
            {basis.assumptions.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </details>
  );
}

function Section({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <h4 className="text-sm font-medium">{title}</h4>
      <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
        {items.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Scans before issue 21 repeated "Not checked against <registry>: …" in every finding; the results now say
 * it once at the top, so a result stored then does not say it again here.
 */
const SAID_ONCE_ABOVE = /^Not checked against [A-Za-z]+: no snapshot of its registrations is available\.$/;

/** One finding: the recording, what is missing, what to do, and what it may be worth. */
export function FindingItem({ finding }: { finding: Finding }) {
  const value = finding.value_at_risk_usd;
  const evidence = finding.evidence.filter((text) => !SAID_ONCE_ABOVE.test(text));
  return (
    <li className="space-y-3 rounded-lg border bg-card p-4" data-testid="finding">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h3 className="break-words font-semibold">
            {finding.recording_title} - {finding.main_artist}
          </h3>
          <p className="font-mono text-sm text-muted-foreground">ISRC {finding.isrc || 'none'}</p>
        </div>
        <div className="text-left sm:text-right">
          <p className="text-sm text-muted-foreground">Estimated value</p>
          {value === null ? (
            <p className="text-sm text-muted-foreground" data-testid="finding-value">
              No plays known: no estimate
            </p>
          ) : (
            <p className="font-semibold" data-testid="finding-value">
              {formatUsd(value)}
            </p>
          )}
        </div>
      </div>
      {finding.missing_registrations.length > 0 ? (
        <div>
          <h4 className="text-sm font-medium">Missing registrations</h4>
          <ul className="mt-1 flex flex-wrap gap-2">
            {finding.missing_registrations.map((registry) => (
              <li key={registry}>
                <Badge variant="destructive">{registry}</Badge>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Section title="Metadata gaps" items={finding.metadata_gaps} />
      <Section title="Recommended actions" items={finding.recommended_actions} />
      {evidence.length > 0 ? (
        <details className="text-sm">
          <summary className="cursor-pointer text-primary underline-offset-4 hover:underline">
            Evidence
          </summary>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
            {evidence.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {value !== null && finding.value_basis ? <HowEstimated basis={finding.value_basis} /> : null}
      {finding.release_id ? (
        <Link
          to={fixLink(finding)}
          className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          Fix on the release page
          <ArrowRight className="h-3.5 w-3.5" aria-hidden="true" />
        </Link>
      ) : null}
    </li>
  );
}
