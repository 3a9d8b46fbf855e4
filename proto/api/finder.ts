// Missing Money Finder: the REST contract of /api/finder (the spec's run-finder-scan and the latest job) and
// the result's shape (spec §3, omni_finder_jobs.result). The finder service builds results to these types,
// the gateway passes them through, and the Finder screen parses with them.
import * as z from 'zod/mini';

export const SCAN_SCOPES = ['global', 'isrcs'] as const;
/** At most this many ISRCs in one 'isrcs' scan. */
export const MAX_SCAN_ISRCS = 1000;
/** How long POST /api/finder/scans waits for the scan before answering with the running job. */
export const SCAN_WAIT_MS = 10_000;
/** The largest play-count CSV accepted (bytes). */
export const MAX_PLAYS_CSV_BYTES = 5 * 1024 * 1024;

/**
 * The play-count CSV's service_type values, with what each means, as the upload card and the refusal list
 * them. Both are non-interactive webcasting (SoundExchange's statutory rates differ between them); plays
 * on demand do not belong in the file at all, and an empty service_type is taken as non_subscription.
 */
export const PLAY_SERVICE_TYPES = [
  { value: 'non_subscription', meaning: 'free, ad-supported internet radio' },
  { value: 'subscription', meaning: 'paid subscription internet radio' },
] as const;
export type PlayServiceType = (typeof PLAY_SERVICE_TYPES)[number]['value'];

/** The rule a bad service_type breaks, in the refusal's words. */
export const PLAY_SERVICE_TYPE_RULE = `service_type must be ${PLAY_SERVICE_TYPES.map(
  ({ value, meaning }) => `${value} (${meaning})`,
).join(' or ')}, or left empty for non_subscription.`;

/** Play-count imports an account may send per window (POST /api/finder/plays, counted per account). */
export const PLAYS_IMPORT_LIMIT = { imports: 10, windowMs: 10 * 60_000 } as const;
export const PLAYS_RATE_LIMITED = `You have sent ${PLAYS_IMPORT_LIMIT.imports} play-count files in the last ${
  PLAYS_IMPORT_LIMIT.windowMs / 60_000
} minutes. Please wait a few minutes and send the file again.`;

// ---- requests -------------------------------------------------------------------------------------------

export const scanBody = z.strictObject({
  scan_scope: z._default(
    z.optional(z.enum(SCAN_SCOPES, { error: "scan_scope must be 'global' or 'isrcs'." })),
    'global',
  ),
  isrcs: z._default(
    z.optional(
      z
        .array(z.string().check(z.trim(), z.maxLength(15)), { error: 'isrcs must be a list of ISRC codes.' })
        .check(z.maxLength(MAX_SCAN_ISRCS, `At most ${MAX_SCAN_ISRCS} ISRCs in one scan.`)),
    ),
    [],
  ),
});
export type ScanBody = z.input<typeof scanBody>;

// ---- the result (spec §3) -------------------------------------------------------------------------------

/** How a finding's value was estimated: shown beside the figure (finder.md: formula and assumptions). */
export const valueBasis = z.object({
  formula: z.string(),
  plays: z.number(),
  rate_per_play_usd: z.number(),
  missing_share: z.number(),
  admin_fee: z.number(),
  years: z.number(),
  assumptions: z.array(z.string()),
});
export type ValueBasis = z.infer<typeof valueBasis>;

export const finding = z.object({
  recording_title: z.string(),
  main_artist: z.string(),
  isrc: z.string(),
  missing_registrations: z.array(z.string()),
  metadata_gaps: z.array(z.string()),
  recommended_actions: z.array(z.string()),
  /** null when no plays are known for the recording: no invented number. */
  value_at_risk_usd: z.nullable(z.number()),
  // Beyond the spec's shape: where the artist fixes it, the evidence, and how the value was reached.
  release_id: z._default(z.optional(z.string()), ''),
  track_id: z._default(z.optional(z.string()), ''),
  evidence: z._default(z.optional(z.array(z.string())), []),
  value_basis: z._default(z.optional(z.nullable(valueBasis)), null),
});
export type Finding = z.infer<typeof finding>;

export const finderResult = z.object({
  scanned: z.number(),
  flagged: z.number(),
  estimated_value_at_risk_usd: z.number(),
  disclaimer: z.string(),
  findings: z.array(finding),
  /** Which registry snapshots were checked, and of which date (never 'live' here). */
  checked_against: z._default(
    z.optional(z.array(z.object({ registry: z.string(), snapshot_date: z.string(), live: z.boolean() }))),
    [],
  ),
});
export type FinderResult = z.infer<typeof finderResult>;

/** The registries a scan can check registrations with, as results name them (checked_against.registry). */
export const FINDER_REGISTRIES = ['SoundExchange', 'PPL', 'IMPEL'] as const;

/**
 * The registries a result did not check registrations with: every one it holds no snapshot of (today, with
 * no registry reachable, all three unless an operator placed snapshot files). Derived from checked_against,
 * so results stored before this was said still say it.
 */
export const registriesNotChecked = (result: Pick<FinderResult, 'checked_against'>): string[] =>
  FINDER_REGISTRIES.filter((name) => !result.checked_against.some((source) => source.registry === name));

/** "SoundExchange, PPL and IMPEL" */
export const listNames = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

export const scanJob = z.object({
  id: z.string(),
  created_at: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  progress: z.object({ done: z.number(), total: z.number() }),
  result: z.nullable(finderResult),
  error: z._default(z.optional(z.string()), ''),
});
export type ScanJob = z.infer<typeof scanJob>;

// ---- responses ------------------------------------------------------------------------------------------

/** POST /api/finder/scans: the spec's {ok, data: {job_id, result}} (result null while the scan runs). */
export const scanResponse = z.object({
  ok: z.boolean(),
  data: z.optional(
    z.object({ job_id: z.string(), result: z.nullable(finderResult), job: z.optional(scanJob) }),
  ),
  error: z.optional(z.object({ message: z.string() })),
});
export type ScanResponse = z.infer<typeof scanResponse>;

/** GET /api/finder/scans/latest: the latest job, or null when the account has never scanned. */
export const latestScanResponse = z.object({ job: z.nullable(scanJob) });
export type LatestScanResponse = z.infer<typeof latestScanResponse>;

export const importPlaysResponse = z.object({ rows: z.number(), recordings: z.number() });
export type ImportPlaysResponse = z.infer<typeof importPlaysResponse>;
