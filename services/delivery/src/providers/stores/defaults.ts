// Default store rules (shared/design/delivery.md): every store takes lossless WAV and FLAC, one release
// per batch, LiveMessage. Streaming services license on-demand and radio-style streams worldwide under
// subscription and ad-supported models; download shops sell permanent downloads. A few stores do both.
// A registry file entry may override any of it; the simulator uses it as is.
import { createHash } from 'node:crypto';
import type { StoreDealTemplate, StoreProfile } from './profile';

/** Shops that sell files (no streaming licence). */
const DOWNLOAD_ONLY: ReadonlySet<string> = new Set([
  'beatport',
  'traxsource',
  'junodownload',
  '7digital',
  'djcity',
]);
/** Stores that stream and also sell downloads (Qobuz's hi-res shop, Beatsource's DJ downloads). */
const STREAM_AND_DOWNLOAD: ReadonlySet<string> = new Set(['qobuz', 'beatsource']);

const STREAMING: StoreDealTemplate = {
  territories: ['Worldwide'],
  commercialModels: ['SubscriptionModel', 'AdvertisementSupportedModel'],
  useTypes: ['OnDemandStream', 'NonInteractiveStream'],
};
const DOWNLOAD: StoreDealTemplate = {
  territories: ['Worldwide'],
  commercialModels: ['PayAsYouGoModel'],
  useTypes: ['PermanentDownload'],
};

export function defaultDeals(key: string): StoreDealTemplate[] {
  if (DOWNLOAD_ONLY.has(key)) return [clone(DOWNLOAD)];
  if (STREAM_AND_DOWNLOAD.has(key)) return [clone(STREAMING), clone(DOWNLOAD)];
  return [clone(STREAMING)];
}

const clone = (deal: StoreDealTemplate): StoreDealTemplate => ({
  territories: [...deal.territories],
  commercialModels: [...deal.commercialModels],
  useTypes: [...deal.useTypes],
});

/**
 * A made-up but stable DPID for a store in simulator mode: `PADPIDA` + 11 upper-case hex characters of the
 * key's hash (alphanumeric, as the ERN schema's party id pattern wants). Real DPIDs come from the registry.
 */
export function simulatedPartyId(key: string): string {
  return `PADPIDA${createHash('sha256').update(`omni-store:${key}`).digest('hex').slice(0, 11).toUpperCase()}`;
}

/** Everything but where the store is and who it is in DDEX. */
export function defaultRules(
  key: string,
): Omit<StoreProfile, 'key' | 'name' | 'partyId' | 'partyName' | 'endpoint'> {
  return {
    ackFolder: 'acknowledgements',
    messageControl: 'LiveMessage',
    releasesPerBatch: 1,
    audio: { accepts: ['wav', 'flac'], transcodeTo: 'flac' },
    deals: defaultDeals(key),
  };
}
