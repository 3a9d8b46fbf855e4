// Value at risk for one recording: Σ plays × rate per play × missing share × (1 − admin fee), per society and
// per play row, over the claimable years. No plays → null (no invented number); the basis says how.
import type { ValueBasis } from '@omni/proto/api';
import type { RegistryId } from '../../providers/registries/port';
import type { Blocks, ShareComponent } from '../gaps/gap';
import type { PlayCount } from '../scan-model';
import {
  ADMIN_FEES,
  CLAIMABLE_YEARS,
  SOCIETY_SHARES,
  SOCIETY_TERRITORIES,
  VALUE_ASSUMPTIONS,
  webcastingRate,
} from './rates';

export const VALUE_FORMULA =
  'plays × rate per play × missing share × (1 − admin fee), summed per society over the claimable years';

export interface ValueEstimate {
  valueUsd: number | null;
  basis: ValueBasis;
}

/** The shares held back per society: the union of what each gap and missing registration blocks. */
export function missingShares(blocked: Blocks[]): Map<RegistryId, number> {
  const components = new Map<RegistryId, Set<ShareComponent>>();
  for (const blocks of blocked)
    for (const [society, parts] of Object.entries(blocks) as [RegistryId, ShareComponent[]][]) {
      const set = components.get(society) ?? new Set();
      for (const part of parts) set.add(part);
      components.set(society, set);
    }
  const shares = new Map<RegistryId, number>();
  for (const [society, parts] of components) {
    const table = SOCIETY_SHARES[society];
    if (!table) continue;
    const share = [...parts].reduce((sum, part) => sum + (table[part] ?? 0), 0);
    if (share > 0) shares.set(society, share);
  }
  return shares;
}

export function estimateValue(blocked: Blocks[], plays: PlayCount[], now: Date): ValueEstimate {
  const shares = missingShares(blocked);
  const firstYear = now.getUTCFullYear() - (CLAIMABLE_YEARS - 1);
  const assumptions = [...VALUE_ASSUMPTIONS];
  const empty = (line: string): ValueEstimate => ({
    valueUsd: null,
    basis: {
      formula: VALUE_FORMULA,
      plays: 0,
      rate_per_play_usd: 0,
      missing_share: 0,
      admin_fee: 0,
      years: 0,
      assumptions: [line, ...assumptions],
    },
  });
  if (plays.length === 0 || plays.every((row) => row.plays <= 0))
    return empty(
      'No plays are known for this recording, so no value is estimated: import its play counts to get one.',
    );
  if (shares.size === 0)
    return empty('What these gaps hold back is not a neighbouring-rights share this estimate covers.');

  let counted = 0;
  let weightedRate = 0;
  let gross = 0;
  let net = 0;
  const years = new Set<number>();
  let tooOld = 0;
  let elsewhere = 0;
  const nearest = new Set<string>();
  for (const row of plays) {
    if (row.plays <= 0) continue;
    if (row.year !== undefined && row.year < firstYear) {
      tooOld += row.plays;
      continue;
    }
    const territory = row.territory.trim().toUpperCase();
    const societies = [...shares.keys()].filter((society) =>
      SOCIETY_TERRITORIES[society]?.includes(territory),
    );
    if (societies.length === 0) {
      elsewhere += row.plays;
      continue;
    }
    const year = row.year ?? now.getUTCFullYear();
    const { rate, tableYear } = webcastingRate(year, row.serviceType ?? 'non_subscription');
    if (tableYear !== year)
      nearest.add(`Plays of ${year} use the ${tableYear} rate, the nearest year published.`);
    years.add(year);
    counted += row.plays;
    weightedRate += row.plays * rate;
    for (const society of societies) {
      const value = row.plays * rate * (shares.get(society) ?? 0);
      gross += value;
      net += value * (1 - (ADMIN_FEES[society] ?? 0));
    }
  }
  if (tooOld > 0)
    assumptions.push(
      `${tooOld.toLocaleString('en-US')} plays from before ${firstYear} are past the claim window and not counted.`,
    );
  if (elsewhere > 0)
    assumptions.push(
      `${elsewhere.toLocaleString('en-US')} plays in territories no affected society collects for are not counted.`,
    );
  assumptions.push(...nearest);
  for (const [society, share] of shares)
    assumptions.push(`Missing ${REGISTRY_SHARE_NAMES[society] ?? society} share: ${round(share * 100, 2)}%.`);
  const rate = counted > 0 ? weightedRate / counted : 0;
  return {
    valueUsd: round(net, 2),
    basis: {
      formula: VALUE_FORMULA,
      plays: counted,
      rate_per_play_usd: round(rate, 6),
      // Effective figures over societies and rows, so plays × rate × share × (1 − fee) gives the value.
      missing_share: counted > 0 && rate > 0 ? round(gross / (counted * rate), 4) : 0,
      admin_fee: gross > 0 ? round(1 - net / gross, 4) : 0,
      years: years.size,
      assumptions,
    },
  };
}

const REGISTRY_SHARE_NAMES: Partial<Record<RegistryId, string>> = {
  soundexchange: 'SoundExchange',
  ppl: 'PPL',
};

export function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}
