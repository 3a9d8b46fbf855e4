// The Basic Audio Profile (DSR Part 3), multi-record-block variant 1.2/1.3: HEAD, summaries (SY01 basic,
// SY02 streaming, SY04/SY05 subscription minima), blocks of release (RE01 head release, RE02 sub-release)
// and resource (AS01/AS02, MW01 works) records followed by their sales lines (SU01 downloads, SU02
// streams), and FOOT.
//
// SU lines carry no money: an SY01/SY02 carries the NetRevenue of all its usages, which is split over the
// SU lines that point to it, pro rata by usages (SU01: Usages − Returns; SU02: NumberOfStreams), by the
// largest remainder method (allocate.ts), so the lines add up to the NetRevenue to the nano. A summary's
// lines may come after any number of blocks, so the file is read twice (memory stays flat): the first
// pass checks the structure and the footer and counts lines per weight for each summary, the second
// yields the lines. Memory: per summary, one entry per distinct usage count, plus the current block.
//
// SY04/SY05 carry per-subscriber minima, not an amount to split; a line pointing to one is refused.
import type { Readable } from 'node:stream';
import { parseAmount } from '../money';
import { type AllocationPlan, planAllocation } from './allocate';
import { AS01, baseType, cellsOf, RE01, RE02, SU01, SU02, SY01, SY02, text, values } from './dsr-cells';
import { afterFooter, checkFooter, type Head, noFooter, recordLine, unknownRecord } from './dsr-file';
import { count, currency, isrc, territory, upc, usageOfUseType, wholeNumber } from './fields';
import { canonicalLine, type ReadItem, refused, type StatementLine, StatementRefused } from './line';
import { textLines } from './open-text';

interface Summary {
  id: string;
  lineNo: number;
  /** NetRevenue in `currency`; null for SY04/SY05. */
  total: bigint | null;
  currency: string | null;
  territory: string | null;
  territoryText: string;
  store: string;
  serviceTier: string;
  usageType: StatementLine['usageType'];
  weights: Map<bigint, number>;
  plan: AllocationPlan | null;
  /** Lines of each weight met so far in the second pass. */
  seen: Map<bigint, number>;
}

const BLOCK_RECORDS = new Set(['RE01', 'RE02', 'AS01', 'AS02', 'MW01', 'SU01', 'SU02']);
const SUMMARIES = new Set(['SY01', 'SY02', 'SY04', 'SY05']);

function readSummary(type: string, cells: string[], lineNo: number, head: Head): Summary {
  const layout = type === 'SY01' ? SY01 : SY02; // the shared first cells are the same in SY04/SY05
  let total: bigint | null = null;
  if (type === 'SY01' || type === 'SY02') {
    const revenue = text(cells[layout.NetRevenue]);
    try {
      total = parseAmount(revenue);
    } catch {
      throw new StatementRefused(
        `The summary record on line ${count(lineNo)} gives "${revenue.slice(0, 40)}" as its revenue, which is not a number. Ask the store for the file again.`,
      );
    }
  }
  const territoryText = text(cells[layout.Territory]);
  return {
    id: text(cells[layout.SummaryRecordId]),
    lineNo,
    total,
    currency: total === null ? null : currency(text(cells[layout.CurrencyOfReporting])),
    territory: territory(territoryText),
    territoryText,
    store: text(cells[layout.DistributionChannel]) || head.senderName,
    serviceTier:
      text(cells[layout.CommercialModel]) ||
      text(cells[layout.ServiceDescription]) ||
      head.serviceDescription,
    usageType: usageOfUseType(text(cells[layout.UseType])),
    weights: new Map(),
    plan: null,
    seen: new Map(),
  };
}

/** A sales line's usages, the weight its share of the money is computed from; null if unreadable. */
function weightOf(type: string, cells: string[]): number | null {
  if (type === 'SU02') return wholeNumber(text(cells[SU02.NumberOfStreams]));
  const usages = wholeNumber(text(cells[SU01.Usages]));
  const returns = wholeNumber(text(cells[SU01.Returns]) || '0');
  return usages === null || returns === null ? null : usages - returns;
}

/** First pass: structure, footer, and per summary the count of lines of each weight. */
async function survey(
  head: Head,
  batches: AsyncIterable<string[]>,
): Promise<{ summaries: Map<string, Summary>; footerAt: number }> {
  const summaries = new Map<string, Summary>();
  let lineNo = head.lineNo;
  let footerAt = 0;
  let blocks = 0;
  let block = '';
  for await (const batch of batches) {
    for (const line of batch) {
      lineNo += 1;
      if (!recordLine(line)) continue;
      if (footerAt) throw afterFooter(lineNo);
      const cells = cellsOf(line);
      const type = baseType(text(cells[0]));
      if (BLOCK_RECORDS.has(type)) {
        const id = text(cells[1]);
        if (id !== block) {
          blocks += 1;
          block = id;
        }
        if (type === 'SU01' || type === 'SU02') {
          const sy = summaries.get(text(cells[SU01.SummaryRecordId]));
          const w = weightOf(type, cells);
          if (sy && sy.total !== null && w !== null) {
            const key = BigInt(w);
            sy.weights.set(key, (sy.weights.get(key) ?? 0) + 1);
          }
        }
      } else if (SUMMARIES.has(type)) {
        const sy = readSummary(type, cells, lineNo, head);
        if (summaries.has(sy.id)) {
          throw new StatementRefused(
            `Two summary records have the id "${sy.id.slice(0, 20)}" (the second on line ${count(lineNo)}). The file is damaged; ask the store for it again.`,
          );
        }
        summaries.set(sy.id, sy);
      } else if (type === 'FOOT') {
        footerAt = lineNo;
        checkFooter('FOOT', cells, lineNo, { lines: lineNo, summaries: summaries.size, blocks });
      } else {
        throw unknownRecord(lineNo, type, 'Basic Audio');
      }
    }
  }
  if (!footerAt) throw noFooter();
  for (const sy of summaries.values()) {
    let W = 0n;
    for (const [w, n] of sy.weights) W += w * BigInt(n);
    if (sy.total !== null && W !== 0n) sy.plan = planAllocation(sy.total, sy.weights);
  }
  return { summaries, footerAt };
}

interface Release {
  upc: string;
  title: string;
  artist: string;
  ids: string[];
  resources: string[];
}
interface Resource {
  isrc: string;
  title: string;
  artist: string;
}

/** The records of the block being read: what its sales lines point to. */
class Block {
  id = '';
  head: Release | null = null;
  releases = new Map<string, Release>();
  resources = new Map<string, Resource>();

  enter(id: string): void {
    if (id === this.id) return;
    this.id = id;
    this.head = null;
    this.releases.clear();
    this.resources.clear();
  }

  add(type: string, cells: string[]): void {
    if (type === 'RE01') {
      const release = {
        upc: upc(text(cells[RE01.ICPN])),
        title: text(cells[RE01.Title]),
        artist: text(cells[RE01.DisplayArtistName]),
        ids: values(cells[RE01.ProprietaryReleaseId]),
        resources: [],
      };
      this.head = release;
      this.releases.set(text(cells[RE01.ReleaseReference]), release);
    } else if (type === 'RE02') {
      this.releases.set(text(cells[RE02.ReleaseReference]), {
        upc: '',
        title: '',
        artist: '',
        ids: values(cells[RE02.ProprietarySubReleaseId]),
        resources: values(cells[RE02.UsedResources]),
      });
    } else if (type === 'AS01' || type === 'AS02') {
      this.resources.set(text(cells[AS01.ResourceReference]), {
        isrc: isrc(values(cells[AS01.ISRC])[0] ?? ''),
        title: text(cells[AS01.Title]),
        artist: text(cells[AS01.DisplayArtistName]),
      });
    }
  }

  /** What a sales line transacted: a resource, a head release, or a sub-release of one resource. */
  describe(cells: string[]): { isrc: string; upc: string; title: string; artist: string; ids: string[] } {
    const headUpc = this.head?.upc ?? '';
    const resource = this.resources.get(text(cells[SU01.TransactedResource]));
    if (resource) return { ...resource, upc: headUpc, ids: this.head?.ids ?? [] };
    const release = this.releases.get(text(cells[SU01.TransactedRelease]));
    if (!release) return { isrc: '', upc: headUpc, title: '', artist: '', ids: [] };
    if (release === this.head)
      return { isrc: '', upc: release.upc, title: release.title, artist: release.artist, ids: release.ids };
    const only = release.resources.length === 1 ? this.resources.get(release.resources[0]!) : undefined;
    return {
      isrc: only?.isrc ?? '',
      upc: headUpc,
      title: only?.title ?? '',
      artist: only?.artist ?? '',
      ids: [...release.ids, ...(this.head?.ids ?? [])],
    };
  }
}

function summaryLine(sy: Summary, head: Head): ReadItem | null {
  // Money no line can carry (no lines, or usages summing to zero) still comes in: as the summary's own line.
  if (sy.total === null || sy.plan || sy.total === 0n) return null;
  const base = unusable(sy, sy.lineNo, sy.total);
  if (base) return base;
  const what = { usageType: 'other' as const, isrc: '', upc: '', proprietaryIds: [], title: '', artist: '' };
  return lineFor(
    sy,
    head,
    sy.lineNo,
    { ...what, quantity: 0, adjustmentType: 'summary_without_usages' },
    sy.total,
  );
}

function unusable(sy: Summary, lineNo: number, amount: bigint | null): ReadItem | null {
  const why = (reason: string) => refused(lineNo, `Line ${count(lineNo)} cannot be used: ${reason}`, amount);
  if (!sy.territory)
    return why(`the territory "${sy.territoryText.slice(0, 20)}" is not a two-letter country code.`);
  if (sy.currency !== 'USD') {
    return refused(
      lineNo,
      `Line ${count(lineNo)} cannot be used: its amount is in ${sy.currency ?? 'an unnamed currency'}; Omni accounts in US dollars and the file gives no rate to US dollars.`,
      null,
    );
  }
  return null;
}

/** The line for a summary's money: its context from the summary and the HEAD, amounts in USD. */
function lineFor(
  sy: Summary,
  head: Head,
  lineNo: number,
  l: Pick<
    StatementLine,
    'usageType' | 'isrc' | 'upc' | 'proprietaryIds' | 'title' | 'artist' | 'quantity' | 'adjustmentType'
  >,
  amount: bigint,
): ReadItem {
  return {
    kind: 'line',
    line: canonicalLine(lineNo, {
      saleStart: head.usage.start,
      saleEnd: head.usage.end,
      reportedAt: head.reportedAt,
      store: sy.store,
      serviceTier: sy.serviceTier,
      territory: sy.territory!,
      usageType: l.usageType,
      isrc: l.isrc,
      upc: l.upc,
      proprietaryIds: l.proprietaryIds,
      title: l.title,
      artist: l.artist,
      quantity: l.quantity,
      amountTxn: amount,
      currencyTxn: 'USD',
      amountAcct: amount,
      fxRate: '1',
      fxDate: '',
      adjustmentType: l.adjustmentType,
    }),
  };
}

function salesLine(
  type: string,
  cells: string[],
  lineNo: number,
  sy: Summary | undefined,
  block: Block,
  head: Head,
): ReadItem {
  const ref = text(cells[SU01.SummaryRecordId]);
  if (!sy)
    return refused(
      lineNo,
      `Line ${count(lineNo)} cannot be used: it refers to summary record "${ref.slice(0, 20)}", which is not in the file.`,
    );
  if (sy.total === null) {
    return refused(
      lineNo,
      `Line ${count(lineNo)} cannot be used: it refers to summary record "${ref.slice(0, 20)}", a subscription minimum that carries no amount to share out.`,
    );
  }
  const quantity = weightOf(type, cells);
  if (quantity === null) {
    const shown = type === 'SU02' ? text(cells[SU02.NumberOfStreams]) : text(cells[SU01.Usages]);
    return refused(
      lineNo,
      `Line ${count(lineNo)} cannot be used: the number of usages "${shown.slice(0, 20)}" is not a whole number.`,
    );
  }
  const w = BigInt(quantity);
  const nth = sy.seen.get(w) ?? 0;
  sy.seen.set(w, nth + 1);
  const amount = sy.plan ? sy.plan.share(w, nth) : 0n;
  const bad = unusable(sy, lineNo, amount);
  if (bad) return bad;
  const what = block.describe(cells);
  return lineFor(
    sy,
    head,
    lineNo,
    {
      usageType: type === 'SU02' ? 'stream' : 'download',
      isrc: what.isrc,
      upc: what.upc,
      proprietaryIds: [...new Set(what.ids)],
      title: what.title,
      artist: what.artist,
      quantity,
      adjustmentType: quantity < 0 ? 'return' : '',
    },
    amount,
  );
}

/** Both passes: `firstPass` continues after the HEAD; `open` gives the file again for the second. */
export async function* readBasicAudio(
  head: Head,
  firstPass: AsyncIterable<string[]>,
  open: () => Readable,
): AsyncGenerator<ReadItem[]> {
  const { summaries, footerAt } = await survey(head, firstPass);
  const block = new Block();
  let lineNo = 0;
  let footerSeen = false;
  for await (const batch of textLines(open())) {
    const out: ReadItem[] = [];
    for (const line of batch) {
      lineNo += 1;
      if (lineNo <= head.lineNo || !recordLine(line)) continue;
      const cells = cellsOf(line);
      const type = baseType(text(cells[0]));
      if (type === 'FOOT') {
        footerSeen = lineNo === footerAt;
        break;
      }
      if (SUMMARIES.has(type)) {
        const item = summaryLine(summaries.get(text(cells[1]))!, head);
        if (item) out.push(item);
        continue;
      }
      block.enter(text(cells[1]));
      if (type === 'SU01' || type === 'SU02') {
        out.push(
          salesLine(type, cells, lineNo, summaries.get(text(cells[SU01.SummaryRecordId])), block, head),
        );
      } else {
        block.add(type, cells);
      }
    }
    if (out.length > 0) yield out;
  }
  // Not the sender's fault: whatever `open` reads from changed between the two passes.
  if (!footerSeen)
    throw new Error('The statement file did not read the same the second time; the import must start again.');
}
