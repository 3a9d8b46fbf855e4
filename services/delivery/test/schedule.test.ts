// A release's schedule at the stores: local midnight in each country (deal dates) or one instant everywhere
// (a release time zone: StartDateTime with the zone's offset that day), and a pre-order as a deal of its own
// with the release's visibility starting with it. Every variant validates against the ERN 4.3 XSD.
import { catalog } from '@omni/proto';
import { buildNewReleaseMessage, createErnValidator, type ErnValidator } from '../src/domain/ddex';
import type { ErnDeal } from '../src/domain/ddex/model';
import {
  releaseSchedule,
  releaseStartInstant,
  scheduledDeals,
  zonedMidnight,
} from '../src/domain/package/schedule';
import { singleInput } from './support/ern-fixtures';

let validator: ErnValidator;
beforeAll(() => {
  validator = createErnValidator();
});
afterAll(() => validator.close());

const streaming: ErnDeal = {
  territories: ['Worldwide'],
  commercialModels: ['SubscriptionModel'],
  useTypes: ['Stream'],
  startDate: '2027-01-15',
};
const release = (over: Partial<catalog.Release>) =>
  catalog.Release.fromPartial({ releaseDate: '2027-01-15', ...over });

test("00:00 in a time zone carries that zone's offset on the day, summer time included", () => {
  expect(zonedMidnight('2027-01-15', 'America/New_York')).toBe('2027-01-15T00:00:00-05:00');
  expect(zonedMidnight('2027-07-15', 'America/New_York')).toBe('2027-07-15T00:00:00-04:00');
  expect(zonedMidnight('2027-01-15', 'Asia/Kolkata')).toBe('2027-01-15T00:00:00+05:30');
  expect(zonedMidnight('2027-01-15', 'UTC')).toBe('2027-01-15T00:00:00+00:00');
});

test('a job turns live at 00:00 in the release time zone, or at 00:00 UTC for local midnight', () => {
  expect(releaseStartInstant(release({ releaseTimeZone: 'America/New_York' }))).toBe(
    '2027-01-15T05:00:00.000Z',
  );
  expect(releaseStartInstant(release({}))).toBe('2027-01-15T00:00:00.000Z');
  expect(releaseStartInstant(release({ releaseDate: '' }))).toBeNull();
});

test('without a time zone or pre-order the deal starts on the date, as before', () => {
  const schedule = releaseSchedule(release({}), '2027-01-15');
  expect(scheduledDeals([streaming], schedule)).toEqual([streaming]);
  expect(schedule.visibleFrom).toBeUndefined();
});

test('a pre-order adds a pre-order deal up to the day before the release, and the release shows from it', async () => {
  const schedule = releaseSchedule(release({ preOrderDate: '2026-12-01' }), '2027-01-15');
  const deals = scheduledDeals([streaming], schedule);
  expect(deals).toEqual([
    streaming,
    { ...streaming, startDate: '2026-12-01', endDate: '2027-01-14', preOrder: true },
  ]);
  const input = singleInput();
  const xml = buildNewReleaseMessage({
    ...input,
    release: { ...input.release, visibility: { reference: 'V1', from: schedule.visibleFrom! } },
    deals,
  });
  expect(xml).toContain('<IsPreOrderDeal>true</IsPreOrderDeal>');
  expect(xml).toContain('<ReleaseVisibilityReference>V1</ReleaseVisibilityReference>');
  expect(xml).toContain('<ReleaseDisplayStartDateTime>2026-12-01T00:00:00</ReleaseDisplayStartDateTime>');
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
});

test('a release time zone makes every deal start at one instant, the pre-order ending as the release starts', async () => {
  const schedule = releaseSchedule(
    release({ preOrderDate: '2026-12-01', releaseTimeZone: 'America/New_York' }),
    '2027-01-15',
  );
  const deals = scheduledDeals([streaming], schedule);
  const { startDate: _date, ...timed } = streaming;
  expect(deals).toEqual([
    { ...timed, startDateTime: '2027-01-15T00:00:00-05:00' },
    {
      ...timed,
      startDateTime: '2026-12-01T00:00:00-05:00',
      endDateTime: '2027-01-15T00:00:00-05:00',
      preOrder: true,
    },
  ]);
  const input = singleInput();
  const xml = buildNewReleaseMessage({
    ...input,
    release: { ...input.release, visibility: { reference: 'V1', from: schedule.visibleFrom! } },
    deals,
  });
  expect(xml).toContain('<StartDateTime>2027-01-15T00:00:00-05:00</StartDateTime>');
  expect(xml).not.toContain('<StartDate>');
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
});
