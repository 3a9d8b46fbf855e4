// The canonical statement line every reader (DDEX DSR, the CSV templates) produces: the store's words,
// normalised, with money in integer nano-units (money.ts). Whose line it is comes later (ledger-line.ts).

export type UsageType = 'stream' | 'download' | 'other';

export interface StatementLine {
  /** Physical 1-based line number in the (decompressed) file; for a quoted CSV record, the line it starts on. */
  lineNo: number;
  /** YYYY-MM-DD */
  saleStart: string;
  /** YYYY-MM-DD */
  saleEnd: string;
  /** YYYY-MM-DD: the line's reporting/posting date, else the file's, else ''. */
  reportedAt: string;
  /** The store/service as reported ("Spotify", "Apple Music"). */
  store: string;
  /** '' when not given; else e.g. 'premium' | 'ad-supported' | a DDEX CommercialModel. */
  serviceTier: string;
  /** ISO 3166-1 alpha-2 upper case, or 'WW'. */
  territory: string;
  usageType: UsageType;
  /** Upper case, '' if none. */
  isrc: string;
  /** Digits, '' if none. */
  upc: string;
  /** Ids the store echoes back from what Omni delivered (DSR LabelResourceId/LabelReleaseId, Apple's Vendor Identifier). */
  proprietaryIds: string[];
  /** As the store reports it ('' if none). */
  title: string;
  artist: string;
  /** Integer; returns are negative. */
  quantity: number;
  /** Nano-units in currencyTxn. */
  amountTxn: bigint;
  /** ISO 4217. */
  currencyTxn: string;
  /** Nano-USD (Omni accounts in USD). */
  amountAcct: bigint;
  /** Decimal string, txn→USD ('1' when same currency). */
  fxRate: string;
  /** YYYY-MM-DD ('' when same currency and none given). */
  fxDate: string;
  /** '' = ordinary sale; else e.g. 'backpay' | 'spam_deduction' | 'revenue_correction' | 'return' … */
  adjustmentType: string;
}

export type ReadItem =
  | { kind: 'line'; line: StatementLine }
  /** A line that cannot be used; `amountAcct` is its USD amount when that much was readable. */
  | { kind: 'refused'; lineNo: number; reason: string; amountAcct: bigint | null };

export interface StatementHeader {
  /** DSR: SenderPartyId (with MessageId, what makes a report unique); CSV: null. */
  sender: string | null;
  messageId: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  reportedAt: string | null;
}

/**
 * The whole file cannot be imported (its structure is wrong, not one line). The message is shown to the
 * person who sent the file as it is: plain words, what is wrong and what to do, no internal names.
 */
export class StatementRefused extends Error {
  override name = 'StatementRefused';
}

/**
 * What every reader returns: the header as soon as it is read, then the items in file order. Line numbers
 * strictly increase from item to item (at most one item per physical line), so an import can resume
 * after the last line number it kept. Iterate `items` to the end or stop it (break): that closes the file.
 */
export interface Statement {
  header: Promise<StatementHeader>;
  items: AsyncIterable<ReadItem>;
  /** The same items in the batches they were read in (one await per batch); use this or `items`. */
  batches: AsyncIterable<ReadItem[]>;
}

export const refused = (lineNo: number, reason: string, amountAcct: bigint | null = null): ReadItem => ({
  kind: 'refused',
  lineNo,
  reason,
  amountAcct,
});

/**
 * A line with its fields in one fixed order. Readers build lines through this (never by spreading one
 * object into another): objects made by spreading and then adding keys took V8's slow path, 40 µs a line.
 */
export function canonicalLine(lineNo: number, l: Omit<StatementLine, 'lineNo'>): StatementLine {
  return {
    lineNo,
    saleStart: l.saleStart,
    saleEnd: l.saleEnd,
    reportedAt: l.reportedAt,
    store: l.store,
    serviceTier: l.serviceTier,
    territory: l.territory,
    usageType: l.usageType,
    isrc: l.isrc,
    upc: l.upc,
    proprietaryIds: l.proprietaryIds,
    title: l.title,
    artist: l.artist,
    quantity: l.quantity,
    amountTxn: l.amountTxn,
    currencyTxn: l.currencyTxn,
    amountAcct: l.amountAcct,
    fxRate: l.fxRate,
    fxDate: l.fxDate,
    adjustmentType: l.adjustmentType,
  };
}
