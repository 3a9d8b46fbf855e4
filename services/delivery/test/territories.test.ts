// Territories: a release is worldwide unless the artist excludes countries. A store's worldwide deal then
// lists only the excluded countries (ERN 4.3's DealTerms takes TerritoryCode or ExcludedTerritoryCode,
// not both), a deal for named countries drops the excluded ones, and the message stays valid.
import { buildNewReleaseMessage, createErnValidator, type ErnValidator } from '../src/domain/ddex';
import { dealsFor } from '../src/domain/package/release-input';
import type { StoreProfile } from '../src/domain/stores/profile';
import { singleInput } from './support/ern-fixtures';

let validator: ErnValidator;
beforeAll(() => {
  validator = createErnValidator();
});
afterAll(() => validator.close());

const profile = (territories: string[][]) =>
  ({
    deals: territories.map((t) => ({
      territories: t,
      commercialModels: ['SubscriptionModel'],
      useTypes: ['Stream'],
    })),
  }) as unknown as StoreProfile;

test('a worldwide deal leaves out the excluded countries; a deal for named countries drops them', () => {
  expect(dealsFor(profile([['Worldwide']]), '2026-01-02', ['KP', 'CU'])).toEqual([
    expect.objectContaining({ territories: ['Worldwide'], excludedTerritories: ['CU', 'KP'] }),
  ]);
  expect(dealsFor(profile([['US', 'CU'], ['CU']]), '2026-01-02', ['CU'])).toEqual([
    expect.objectContaining({ territories: ['US'] }),
  ]);
  expect(dealsFor(profile([['Worldwide']]), '2026-01-02')[0]).not.toHaveProperty('excludedTerritories');
});

test('the message with exclusions lists only ExcludedTerritoryCode and validates against the XSD', async () => {
  const input = singleInput();
  const xml = buildNewReleaseMessage({
    ...input,
    deals: dealsFor(profile([['Worldwide']]), '2026-01-02', ['CU', 'KP']),
  });
  expect(xml).toContain('<ExcludedTerritoryCode>CU</ExcludedTerritoryCode>');
  expect(xml).toContain('<ExcludedTerritoryCode>KP</ExcludedTerritoryCode>');
  expect(xml).not.toContain('<TerritoryCode>Worldwide</TerritoryCode>');
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
});
