// Published US statutory webcasting rates per performance (finder.md: CRB Web V, 2021–2025), and the society
// facts the estimate rests on. The admin fees are assumptions, said so wherever a figure uses them.
import type { RegistryId } from '../../providers/registries/port';
import type { ShareComponent } from '../gaps/gap';

export const WEBCASTING_RATES_USD: Record<number, { non_subscription: number; subscription: number }> = {
  2021: { non_subscription: 0.0021, subscription: 0.0026 },
  2022: { non_subscription: 0.0022, subscription: 0.0028 },
  2023: { non_subscription: 0.0024, subscription: 0.003 },
  2024: { non_subscription: 0.0025, subscription: 0.0031 },
  2025: { non_subscription: 0.0025, subscription: 0.0032 },
};

const TABLE_YEARS = Object.keys(WEBCASTING_RATES_USD).map(Number);

/** The rate of a year, or of the nearest year in the table (and that it was the nearest). */
export function webcastingRate(
  year: number,
  serviceType: 'non_subscription' | 'subscription',
): { rate: number; tableYear: number } {
  const tableYear = TABLE_YEARS.reduce((best, candidate) =>
    Math.abs(candidate - year) < Math.abs(best - year) ? candidate : best,
  );
  return { rate: (WEBCASTING_RATES_USD[tableYear] ?? { [serviceType]: 0 })[serviceType] ?? 0, tableYear };
}

/** Unclaimed money is held about three years: the current year and the two before it. */
export const CLAIMABLE_YEARS = 3;

/** Who gets what of one play: SoundExchange by statute (17 U.S.C. §114(g)(2)); PPL roughly half and half. */
export const SOCIETY_SHARES: Partial<Record<RegistryId, Partial<Record<ShareComponent, number>>>> = {
  soundexchange: { owner: 0.5, featured: 0.45, non_featured: 0.05 },
  ppl: { owner: 0.5, performers: 0.5 },
};

/** Assumed administration fees (not published as a single figure by either society). */
export const ADMIN_FEES: Partial<Record<RegistryId, number>> = { soundexchange: 0.05, ppl: 0.09 };

/** Which plays each society collects for (ISO country codes as the play counts give them). */
export const SOCIETY_TERRITORIES: Partial<Record<RegistryId, string[]>> = {
  soundexchange: ['US'],
  ppl: ['GB', 'UK'],
};

export const VALUE_ASSUMPTIONS = [
  'Rates are the US statutory webcasting rates per performance (2021–2025); PPL publishes no per-play rate, so the same rates stand in for UK plays.',
  'Administration fees are assumptions: SoundExchange about 5%, PPL about 9% (8–10%).',
  'Only plays of the last 3 years count (unclaimed money is held about three years); plays without a year are taken as within them.',
  'Plays without a service type are taken as non-subscription webcasting.',
  'Publishing royalties (IMPEL: works, writers, ISWC) are not estimated.',
];
