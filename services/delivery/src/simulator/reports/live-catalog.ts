// What a simulated store holds, read back from its folder the way the simulator left it: every batch it
// ingested is a line of `<root>/<key>/.simulator/ingested.jsonl` (files.ts readIngested), and a batch whose
// outcome is FileOK was acknowledged SuccessfullyIngestedByReleaseDistributor, i.e. the store took it.
// Its folder still holds BatchComplete_<batchId>.xml and every ERN message it lists. Each message the
// store took replaces what it held for that release from the day it was ingested (UTC): a
// NewReleaseMessage with its deals, the same without deals (a takedown), or a PurgeReleaseMessage.
// A rejected or failed batch changes nothing. So a release is live on a day when the version the store
// held that day has a deal (not a pre-order) covering the day; the report then asks per territory and
// commercial model. Nothing here is kept in memory between calls: the folder is the state.
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseBatchComplete } from '../../domain/ddex/batch-complete';
import { children, optionalText, readXmlDocument, type XmlNode, type XmlValue } from '../../domain/xml/read';
import { readIngested } from '../files';
import { addDays } from './sales-model';

const STATE_DIR = '.simulator';

export interface CatalogParty {
  partyId: string;
  name: string;
}

export interface CatalogTrack {
  isrc: string;
  title: string;
  displayArtist: string;
  /** `namespace::id` of the track's TrackRelease (ERN Audio profile), if the message had one. */
  proprietaryReleaseIds: string[];
  /** `namespace::id` of the recording's own proprietary ids, if any. */
  proprietaryResourceIds: string[];
}

export interface CatalogDeal {
  /** ISO codes, or `Worldwide`. */
  territories: string[];
  excluded: string[];
  commercialModels: string[];
  useTypes: string[];
  /** First and last day (`YYYY-MM-DD`, inclusive); absent: open. */
  start?: string;
  end?: string;
  preOrder: boolean;
}

/** One message the store took for a release, applied from `from` until the next one. */
export interface ReleaseVersion {
  /** `YYYY-MM-DD` (UTC) the store ingested it. */
  from: string;
  batchId: string;
  messageId: string;
  /** A PurgeReleaseMessage: the release is gone. */
  purged: boolean;
  upc: string;
  releaseType: string;
  title: string;
  displayArtist: string;
  tracks: CatalogTrack[];
  deals: CatalogDeal[];
}

export interface StoreCatalog {
  key: string;
  /** The ERN's MessageSender (Omni), from the latest message taken. */
  distributor: CatalogParty;
  /** The ERN's MessageRecipient (the store). */
  store: CatalogParty;
  /** Per UPC, the versions in the order the store took them. */
  releases: Map<string, ReleaseVersion[]>;
}

interface IngestedLine {
  batchId: string;
  outcome: string;
  ingestedAt: string;
}

/** The store's catalogue, or undefined when it never took a release. */
export async function readStoreCatalog(root: string, key: string): Promise<StoreCatalog | undefined> {
  const storeDir = path.join(root, key);
  const ingested = await readIngested<IngestedLine>(
    path.join(storeDir, STATE_DIR, 'ingested.json'),
    path.join(storeDir, STATE_DIR, 'ingested.jsonl'),
  );
  const taken = Object.entries(ingested)
    .filter(([, b]) => b.outcome === 'FileOK')
    .sort(([, a], [, b]) => a.batchId.localeCompare(b.batchId));
  const releases = new Map<string, ReleaseVersion[]>();
  let parties: { distributor: CatalogParty; store: CatalogParty } | undefined;
  for (const [folder, batch] of taken) {
    const batchDir = path.join(storeDir, folder);
    const manifest = parseBatchComplete(
      await fs.readFile(path.join(batchDir, `BatchComplete_${batch.batchId}.xml`), 'utf8'),
    );
    for (const message of manifest.messages) {
      const file = path.join(batchDir, message.path);
      const version = readMessage(await fs.readFile(file, 'utf8'), file, {
        from: batch.ingestedAt.slice(0, 10),
        batchId: batch.batchId,
      });
      parties = version.parties;
      const list = releases.get(version.release.upc) ?? [];
      list.push(version.release);
      releases.set(version.release.upc, list);
    }
  }
  if (!parties) return undefined;
  return { key, ...parties, releases };
}

function readMessage(
  xml: string,
  where: string,
  at: { from: string; batchId: string },
): { parties: { distributor: CatalogParty; store: CatalogParty }; release: ReleaseVersion } {
  const doc = readXmlDocument(xml, where);
  const purge = node(doc.PurgeReleaseMessage);
  const root = purge ?? node(doc.NewReleaseMessage);
  if (!root) throw new Error(`${where}: neither a NewReleaseMessage nor a PurgeReleaseMessage`);
  const header = node(root.MessageHeader) ?? {};
  const party = (name: string): CatalogParty => {
    const p = node(header[name]) ?? {};
    return {
      partyId: optionalText(p, 'PartyId') ?? '',
      name: optionalText(node(p.PartyName) ?? {}, 'FullName') ?? '',
    };
  };
  const parties = { distributor: party('MessageSender'), store: party('MessageRecipient') };
  const messageId = optionalText(header, 'MessageId') ?? '';
  if (purge) {
    const purged = node(purge.PurgedRelease) ?? {};
    const upc = optionalText(node(purged.ReleaseId) ?? {}, 'ICPN') ?? '';
    return {
      parties,
      release: {
        ...at,
        messageId,
        purged: true,
        upc,
        releaseType: '',
        title: '',
        displayArtist: '',
        tracks: [],
        deals: [],
      },
    };
  }

  const resources = node(root.ResourceList) ?? {};
  const releaseList = node(root.ReleaseList) ?? {};
  const release = node(children(releaseList, 'Release')[0]) ?? {};
  // A TrackRelease names its recording (ReleaseResourceReference) and carries our proprietary id.
  const trackReleaseIds = new Map<string, string[]>();
  for (const value of children(releaseList, 'TrackRelease')) {
    const track = node(value) ?? {};
    const ref = optionalText(track, 'ReleaseResourceReference') ?? '';
    trackReleaseIds.set(ref, proprietaryIds(node(track.ReleaseId)));
  }
  const tracks: CatalogTrack[] = [];
  for (const value of children(resources, 'SoundRecording')) {
    const rec = node(value) ?? {};
    const edition = node(rec.SoundRecordingEdition) ?? {};
    const ids = node(edition.ResourceId) ?? {};
    const isrc = optionalText(ids, 'ISRC');
    if (!isrc) continue;
    tracks.push({
      isrc,
      title: optionalText(rec, 'DisplayTitleText') ?? '',
      displayArtist: optionalText(rec, 'DisplayArtistName') ?? '',
      proprietaryReleaseIds: trackReleaseIds.get(optionalText(rec, 'ResourceReference') ?? '') ?? [],
      proprietaryResourceIds: proprietaryIds(ids),
    });
  }
  const deals: CatalogDeal[] = [];
  for (const dealList of children(root, 'DealList')) {
    for (const releaseDeal of children(node(dealList) ?? {}, 'ReleaseDeal')) {
      for (const deal of children(node(releaseDeal) ?? {}, 'Deal')) {
        const terms = node(node(deal)?.DealTerms);
        if (terms) deals.push(readDeal(terms));
      }
    }
  }
  return {
    parties,
    release: {
      ...at,
      messageId,
      purged: false,
      upc: optionalText(node(release.ReleaseId) ?? {}, 'ICPN') ?? '',
      releaseType: optionalText(release, 'ReleaseType') ?? '',
      title: optionalText(release, 'DisplayTitleText') ?? '',
      displayArtist: optionalText(release, 'DisplayArtistName') ?? '',
      tracks,
      deals,
    },
  };
}

function readDeal(terms: XmlNode): CatalogDeal {
  const texts = (name: string) =>
    children(terms, name)
      .map(text)
      .filter((t) => t !== '');
  const period = node(terms.ValidityPeriod) ?? {};
  const startDate = optionalText(period, 'StartDate');
  const startDateTime = optionalText(period, 'StartDateTime');
  const endDate = optionalText(period, 'EndDate');
  const endDateTime = optionalText(period, 'EndDateTime');
  // A StartDateTime opens the deal at an instant in the release's time zone: its own date is the first day.
  // An EndDate is the last day; an EndDateTime is the instant it ends, so the day before is the last.
  const start = startDate ?? startDateTime?.slice(0, 10);
  const end = endDate ?? (endDateTime ? addDays(endDateTime.slice(0, 10), -1) : undefined);
  const included = texts('TerritoryCode');
  const excluded = texts('ExcludedTerritoryCode');
  return {
    territories: included.length ? included : ['Worldwide'],
    excluded,
    commercialModels: texts('CommercialModelType'),
    useTypes: texts('UseType'),
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
    preOrder: optionalText(terms, 'IsPreOrderDeal') === 'true',
  };
}

function node(value: XmlValue | undefined): XmlNode | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return node(value[0]);
  return typeof value === 'string' ? { '#text': value } : value;
}

function text(value: XmlValue): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return '';
  const inner = value['#text'];
  return typeof inner === 'string' ? inner : '';
}

/** Every ProprietaryId under `ids` as `namespace::id` (DSR's syntax). */
function proprietaryIds(ids: XmlNode | undefined): string[] {
  if (!ids) return [];
  return children(ids, 'ProprietaryId').flatMap((value) => {
    const id = text(value);
    const namespace = typeof value === 'object' && !Array.isArray(value) ? value['@Namespace'] : undefined;
    return id ? [`${typeof namespace === 'string' ? namespace : ''}::${id}`] : [];
  });
}

export const applies = (deal: CatalogDeal, territory: string, date: string): boolean =>
  !deal.preOrder &&
  (deal.start === undefined || deal.start <= date) &&
  (deal.end === undefined || date <= deal.end) &&
  (deal.territories.includes('Worldwide')
    ? !deal.excluded.includes(territory)
    : deal.territories.includes(territory));

/** The version the store held on `date` (the last one taken on or before it), or undefined. */
export function versionOn(versions: readonly ReleaseVersion[], date: string): ReleaseVersion | undefined {
  let held: ReleaseVersion | undefined;
  for (const v of versions) if (v.from <= date) held = v;
  return held;
}

/**
 * The first day the release was live at the store in any territory (a deal, not a pre-order, in force
 * while the store held a version with it), or undefined when it never was.
 */
export function firstLiveDate(versions: readonly ReleaseVersion[]): string | undefined {
  let first: string | undefined;
  versions.forEach((v, i) => {
    if (v.purged) return;
    // Held from its ingest day until the day before the next version's (a later one the same day wins).
    const next = versions[i + 1];
    const until = next ? addDays(next.from, -1) : undefined;
    for (const deal of v.deals) {
      if (deal.preOrder) continue;
      const day = deal.start && deal.start > v.from ? deal.start : v.from;
      if (until !== undefined && day > until) continue;
      if (deal.end !== undefined && day > deal.end) continue;
      if (first === undefined || day < first) first = day;
    }
  });
  return first;
}
