// Value at risk against figures worked by hand: plays × rate × missing share × (1 − admin fee), per society,
// over the claimable years, with the basis shown; no plays → null, never an invented number.
import { estimateValue, missingShares } from '../src/domain/value/estimate';
import { webcastingRate } from '../src/domain/value/rates';

const now = new Date('2025-06-01T00:00:00Z');

describe('shares held back', () => {
  it('unions what each gap blocks, per society', () => {
    const shares = missingShares([
      { soundexchange: ['owner', 'featured'] },
      { soundexchange: ['owner'], ppl: ['performers'] },
      { impel: ['publishing'] },
    ]);
    expect(Object.fromEntries(shares)).toEqual({ soundexchange: 0.95, ppl: 0.5 });
  });
});

describe('rates', () => {
  it('reads the statutory table, and the nearest year outside it', () => {
    expect(webcastingRate(2023, 'non_subscription')).toEqual({ rate: 0.0024, tableYear: 2023 });
    expect(webcastingRate(2024, 'subscription')).toEqual({ rate: 0.0031, tableYear: 2024 });
    expect(webcastingRate(2027, 'subscription')).toEqual({ rate: 0.0032, tableYear: 2025 });
    expect(webcastingRate(2019, 'non_subscription')).toEqual({ rate: 0.0021, tableYear: 2021 });
  });
});

describe('value at risk', () => {
  it('SoundExchange owner and featured shares on US plays of the claimable years', () => {
    // 10,000 × $0.0025 × 95% × (1 − 5%) = $22.5625; 1,000 × $0.0032 × 95% × 95% = $2.888; 2022 is too old.
    const estimate = estimateValue(
      [{ soundexchange: ['owner', 'featured'] }],
      [
        { isrc: 'X', territory: 'US', plays: 10_000, year: 2024, serviceType: 'non_subscription' },
        { isrc: 'X', territory: 'us', plays: 1_000, year: 2025, serviceType: 'subscription' },
        { isrc: 'X', territory: 'US', plays: 5_000, year: 2022 },
        { isrc: 'X', territory: 'FR', plays: 7_000, year: 2024 },
      ],
      now,
    );
    expect(estimate.valueUsd).toBe(25.45);
    expect(estimate.basis).toMatchObject({ plays: 11_000, missing_share: 0.95, admin_fee: 0.05, years: 2 });
    expect(estimate.basis.rate_per_play_usd).toBeCloseTo((10_000 * 0.0025 + 1_000 * 0.0032) / 11_000, 6);
    const { plays, rate_per_play_usd, missing_share, admin_fee } = estimate.basis;
    expect(plays * rate_per_play_usd * missing_share * (1 - admin_fee)).toBeCloseTo(25.45, 2);
    expect(estimate.basis.assumptions).toEqual(
      expect.arrayContaining([
        '5,000 plays from before 2023 are past the claim window and not counted.',
        '7,000 plays in territories no affected society collects for are not counted.',
      ]),
    );
  });

  it('PPL on UK plays and the SoundExchange non-featured share on US plays, a year past the table', () => {
    // GB: 4,000 × $0.0025 (2026 → 2025 rate) × 100% × (1 − 9%) = $9.10
    // US: 2,000 × $0.0025 × 5% × (1 − 5%) = $0.2375 → $9.3375 → $9.34
    const estimate = estimateValue(
      [{ ppl: ['owner', 'performers'], soundexchange: ['non_featured'] }],
      [
        { isrc: 'X', territory: 'GB', plays: 4_000, year: 2026 },
        { isrc: 'X', territory: 'US', plays: 2_000, year: 2026 },
      ],
      new Date('2026-03-01T00:00:00Z'),
    );
    expect(estimate.valueUsd).toBe(9.34);
    expect(estimate.basis.assumptions).toContain(
      'Plays of 2026 use the 2025 rate, the nearest year published.',
    );
  });

  it('no plays → null and a line saying so', () => {
    const estimate = estimateValue([{ soundexchange: ['owner'] }], [], now);
    expect(estimate.valueUsd).toBeNull();
    expect(estimate.basis.assumptions[0]).toBe(
      'No plays are known for this recording, so no value is estimated: import its play counts to get one.',
    );
  });

  it('publishing-only gaps are not priced', () => {
    const estimate = estimateValue(
      [{ impel: ['publishing'] }],
      [{ isrc: 'X', territory: 'US', plays: 100 }],
      now,
    );
    expect(estimate.valueUsd).toBeNull();
  });
});
