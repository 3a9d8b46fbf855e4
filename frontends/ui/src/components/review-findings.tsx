import { PLATFORMS, type ReviewFinding } from '@omni/proto/api';
import { Badge } from './badge';

const STORE_NAMES = new Map(PLATFORMS.map((p) => [p.key, p.name]));

const BADGES = { hold: 'Held', 'look-at': 'To look at', 'same-owner-duplicate': 'Duplicate' } as const;

/** The rights check's evidence (rule `fingerprint-match`): which recording matched, how well, and where. */
function MatchEvidence({ match }: { match: NonNullable<ReviewFinding['match']> }) {
  return (
    <span className="block text-xs text-muted-foreground" data-testid="fingerprint-evidence">
      Matched release {match.releaseId}, track {match.track} “{match.title}” · score {match.score.toFixed(3)}{' '}
      · from {match.offsetSeconds.toFixed(1)} s{match.speed !== 1 ? ` · at speed ${match.speed}` : ''}
    </span>
  );
}

/**
 * The automatic store checks' findings, as the admin reviewing and the artist fixing both read them: the
 * verdict, what is wrong and how to fix it, and the stores it concerns.
 */
export function ReviewFindings({ findings }: { findings: readonly ReviewFinding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label="Automatic store checks" data-testid="review-findings">
      {findings.map((f) => (
        <li key={`${f.rule}:${f.message}`} className="flex items-start gap-2 text-sm">
          <Badge variant={f.severity === 'error' ? 'destructive' : 'secondary'} className="shrink-0">
            {f.severity === 'error' ? 'Refused' : f.match ? BADGES[f.match.decision] : 'Warning'}
          </Badge>
          <span>
            {f.message}
            {f.match ? <MatchEvidence match={f.match} /> : null}
            <span className="block text-xs text-muted-foreground">
              {f.stores.length === 0
                ? 'Every store'
                : f.stores.map((key) => STORE_NAMES.get(key) ?? key).join(', ')}
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
