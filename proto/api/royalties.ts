// Royalties: the REST contract of statement imports (/api/admin/statements), the unmatched queue, the /app
// figures and /app/analytics. Money crosses the wire as decimal strings in USD ("12.34567890", never a
// float); the royalties service keeps it as integer nano-dollars. The service builds answers to these
// types, the gateway passes them through, and the admin and dashboard screens parse with them.
import * as z from 'zod/mini';

/** The report formats an import accepts: `dsr` (DDEX DSR flat file) or a CSV/TSV template. */
export const STATEMENT_SOURCES = [
  { value: 'dsr', label: 'DDEX DSR (flat file, .tsv or .tsv.gz)' },
  { value: 'omni', label: 'Omni canonical CSV' },
  { value: 'distrokid', label: 'DistroKid-style TSV ("Excruciating Detail")' },
  { value: 'tunecore', label: 'TuneCore-style CSV' },
  { value: 'cdbaby', label: 'CD Baby-style TSV' },
  { value: 'apple', label: 'Apple-style finance report (TSV)' },
] as const;
export type StatementSource = (typeof STATEMENT_SOURCES)[number]['value'];
export const isStatementSource = (v: unknown): v is StatementSource =>
  STATEMENT_SOURCES.some((s) => s.value === v);

/** The largest statement file accepted (bytes, as sent: a gzip counts compressed). */
export const MAX_STATEMENT_BYTES = 4 * 1024 * 1024 * 1024;

/** A decimal amount in USD, as a string with up to 9 decimals ("-0.00789993"). */
const amount = z.string().check(z.regex(/^-?\d+(\.\d{1,9})?$/));

export const IMPORT_STATES = ['receiving', 'queued', 'importing', 'publishing', 'done', 'refused'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

const lineCounts = z.object({
  total: z.number(),
  imported: z.number(),
  unmatched: z.number(),
  refused: z.number(),
});

/** imported + unmatched + refused = file, in USD, per file. `balanced` says they add up to the nano-dollar. */
export const reconciliation = z.object({
  file: amount,
  imported: amount,
  unmatched: amount,
  refused: amount,
  balanced: z.boolean(),
});

export const statementImport = z.object({
  id: z.string(),
  source: z.string(),
  fileName: z.string(),
  state: z.enum(IMPORT_STATES),
  /** 0..1: bytes read of the file while importing, then chunks published. */
  progress: z.number(),
  bytes: z.number(),
  lines: lineCounts,
  reconciliation,
  /** The sale period the file covers (YYYY-MM-DD), when known. */
  period: z.nullable(z.object({ start: z.string(), end: z.string() })),
  /** The reporting date (YYYY-MM-DD), when known. */
  reportedAt: z.nullable(z.string()),
  /** DSR HEAD: sender and MessageId (null for CSV). */
  sender: z.nullable(z.string()),
  messageId: z.nullable(z.string()),
  /** Why the whole file was refused (state 'refused'), in words a person understands. */
  refusal: z.nullable(z.string()),
  /** The first refused lines with why (line numbers are the file's). */
  refusedLines: z.array(z.object({ lineNo: z.number(), reason: z.string() })),
  /** How the file came in: an admin's upload or a store's report folder. */
  via: z.enum(['upload', 'inbox']),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
});
export type StatementImport = z.infer<typeof statementImport>;

/** POST /api/admin/statements: 202 with the new import, or 200 with the earlier one (`duplicate: true`). */
export const statementAccepted = z.object({
  id: z.string(),
  duplicate: z.boolean(),
  import: statementImport,
});

export const statementList = z.object({ imports: z.array(statementImport) });

/** One identifier (ISRC, else UPC) no Omni recording or release carries, with its waiting lines. */
export const unmatchedGroup = z.object({
  identifier: z.string(),
  kind: z.enum(['isrc', 'upc', 'none']),
  lines: z.number(),
  quantity: z.number(),
  amount,
  /** What the stores call it, from the first line. */
  title: z.string(),
  artist: z.string(),
  stores: z.array(z.string()),
  imports: z.array(z.string()),
  status: z.enum(['open', 'attached', 'not_ours']),
  /** An open group an admin is attaching or marking not ours right now (its lines move a batch at a time). */
  resolving: z.optional(z.object({ action: z.enum(['attach', 'not_ours']), to: z.string() })),
});
/**
 * The queue: at most a few hundred groups of each status, the biggest amounts first. `open` and `amount`
 * count every open line; `counts` every group of each status (more than `groups` holds when capped).
 */
export const unmatchedList = z.object({
  groups: z.array(unmatchedGroup),
  open: z.number(),
  amount,
  counts: z.optional(z.object({ open: z.number(), attached: z.number(), not_ours: z.number() })),
});
export type UnmatchedList = z.infer<typeof unmatchedList>;

/** POST /api/admin/statements/unmatched/resolve */
export const resolveUnmatchedBody = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('attach'),
    identifier: z.string().check(z.minLength(1)),
    /** The Omni recording (ISRC) or release (UPC) the lines belong to. */
    to: z.string().check(z.minLength(1)),
  }),
  z.strictObject({ action: z.literal('not_ours'), identifier: z.string().check(z.minLength(1)) }),
]);
export type ResolveUnmatchedBody = z.infer<typeof resolveUnmatchedBody>;

/** The /app stat cards' money and plays (GET /api/dashboard adds these). */
export const dashboardEarnings = z.object({
  /** Streams in the last sale month statements have reported, and which month that is. */
  monthlyStreams: z.number(),
  streamsMonth: z.nullable(z.object({ saleMonth: z.string(), reportedMonth: z.string() })),
  /** Everything earned, all statements (USD decimal string). */
  totalEarningsUsd: amount,
  /** The latest sale and reporting months in the total. */
  earningsThrough: z.nullable(z.object({ saleMonth: z.string(), reportedMonth: z.string() })),
});

const breakdownRow = z.object({
  key: z.string(),
  label: z.string(),
  streams: z.number(),
  quantity: z.number(),
  amount,
});

/** GET /api/analytics?from=YYYY-MM&to=YYYY-MM&store=&territory=&release=&track= */
export const analytics = z.object({
  /** Final: from imported statements, by sale month. */
  earnings: z.object({
    source: z.string(),
    refreshedAt: z.nullable(z.string()),
    currency: z.literal('USD'),
    totals: z.object({ streams: z.number(), quantity: z.number(), amount }),
    byMonth: z.array(z.object({ month: z.string(), streams: z.number(), quantity: z.number(), amount })),
    byStore: z.array(breakdownRow),
    byTerritory: z.array(breakdownRow),
    byRelease: z.array(breakdownRow),
    byTrack: z.array(breakdownRow),
  }),
  /** Estimated: daily streams from stores' trend reports (the store simulator under npm start). */
  trends: z.object({
    source: z.string(),
    refreshedAt: z.nullable(z.string()),
    timeZone: z.literal('UTC'),
    totals: z.object({ streams: z.number() }),
    byDay: z.array(z.object({ date: z.string(), streams: z.number() })),
    byStore: z.array(z.object({ key: z.string(), label: z.string(), streams: z.number() })),
    byTerritory: z.array(z.object({ key: z.string(), label: z.string(), streams: z.number() })),
  }),
  /** What the filters may be set to. */
  filters: z.object({
    months: z.array(z.string()),
    stores: z.array(z.object({ key: z.string(), label: z.string() })),
    territories: z.array(z.object({ key: z.string(), label: z.string() })),
    releases: z.array(z.object({ key: z.string(), label: z.string() })),
    tracks: z.array(z.object({ key: z.string(), label: z.string(), release: z.string() })),
  }),
});
export type Analytics = z.infer<typeof analytics>;
