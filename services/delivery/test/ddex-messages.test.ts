// ERN 4.3 messages built from our release model validate against the DDEX XSD (libxml2), and carry what
// the store needs: ISRC, duration, hashes, explicit flags, consistent references, the deals (or none).
import {
  buildNewReleaseMessage,
  buildPurgeReleaseMessage,
  buildTakedownMessage,
  createErnValidator,
  type ErnValidator,
} from '../src/domain/ddex';
import { albumInput, explicitInput, singleInput } from './support/ern-fixtures';

let validator: ErnValidator;
beforeAll(() => {
  validator = createErnValidator();
});
afterAll(() => validator.close());

const all = (xml: string, element: string) =>
  [...xml.matchAll(new RegExp(`<${element}(?: [^>]*)?>([^<]*)</${element}>`, 'g'))].map((m) => m[1]);

/** Every reference the message uses is declared once: parties in PartyList, resources in ResourceList. */
function expectConsistentReferences(xml: string) {
  const parties = all(xml, 'PartyReference');
  expect(new Set(parties).size).toBe(parties.length);
  for (const used of [
    ...all(xml, 'ArtistPartyReference'),
    ...all(xml, 'ContributorPartyReference'),
    ...all(xml, 'ReleaseLabelReference'),
  ])
    expect(parties).toContain(used);
  const resources = all(xml, 'ResourceReference');
  for (const used of [...all(xml, 'ReleaseResourceReference'), ...all(xml, 'LinkedReleaseResourceReference')])
    expect(resources).toContain(used);
  expect(all(xml, 'DealReleaseReference').every((r) => all(xml, 'ReleaseReference').includes(r))).toBe(true);
}

test('a single is a valid NewReleaseMessage with its recording, cover and deals', async () => {
  const xml = buildNewReleaseMessage(singleInput());
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });

  expect(xml).toContain('<ern:NewReleaseMessage xmlns:ern="http://ddex.net/xml/ern/43"');
  expect(xml).toContain('ReleaseProfileVersionId="SimpleAudioSingle"');
  expect(all(xml, 'ISRC')).toEqual(['QZES72600001']);
  expect(all(xml, 'ICPN')).toEqual(['196000000012']);
  expect(all(xml, 'Duration')).toEqual(['PT3M15S']);
  expect(all(xml, 'Algorithm')).toEqual(['SHA-256', 'SHA-256']);
  expect(all(xml, 'ParentalWarningType')).toEqual(['NotExplicit', 'NotExplicit']);
  expect(xml).toContain('<LinkedReleaseResourceReference LinkDescription="CoverArt">A2</');
  expect(all(xml, 'UseType')).toEqual(['OnDemandStream', 'NonInteractiveStream', 'PermanentDownload']);
  // An artist who also wrote the song is one party; the label is a party too.
  expect(all(xml, 'FullName')).toEqual([
    'Omni Distribution',
    'Example Store',
    'Luna Vega',
    'Sam Reed',
    'Night Owl Records',
  ]);
  expectConsistentReferences(xml);
});

test('explicit content is flagged on the track and on the release; a featured artist is credited apart', async () => {
  const xml = buildNewReleaseMessage(explicitInput());
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });

  // Track 1 explicit, track 2 clean, the release explicit because one of its tracks is.
  expect(all(xml, 'ParentalWarningType')).toEqual(['Explicit', 'NotExplicit', 'Explicit']);
  expect(xml).toContain('ReleaseProfileVersionId="Audio"');
  expect(all(xml, 'ReleaseType')).toEqual(['EP']);
  expect(all(xml, 'DisplayArtistName')).toContain('Luna Vega feat. Kai Stone');
  expect(all(xml, 'DisplayArtistRole')).toEqual(['MainArtist', 'MainArtist', 'FeaturedArtist', 'MainArtist']);
  // In the release's group, then in each track's TrackRelease (the Audio profile).
  expect(all(xml, 'ReleaseResourceReference')).toEqual(['A1', 'A2', 'A1', 'A2']);
  expect(all(xml, 'TerritoryCode')).toEqual(['US', 'CA', 'GB']);
  expectConsistentReferences(xml);
});

test('a takedown is the same NewReleaseMessage without deals, and valid', async () => {
  const { deals: _, ...rest } = singleInput();
  const xml = buildTakedownMessage(rest);
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
  expect(xml).toContain('<ern:NewReleaseMessage');
  expect(xml).not.toContain('<DealList');
  expect(all(xml, 'ICPN')).toEqual(['196000000012']);
  expectConsistentReferences(xml);
});

test('a purge is a valid PurgeReleaseMessage naming the release by its UPC', async () => {
  const xml = buildPurgeReleaseMessage({
    header: singleInput().header,
    upc: '196000000012',
    title: 'Night Drive 1',
  });
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
  expect(xml).toContain('<ern:PurgeReleaseMessage');
  expect(all(xml, 'ICPN')).toEqual(['196000000012']);
});

test('a 12-track album on two discs is valid: recordings in order per disc, one TrackRelease per track', async () => {
  const input = albumInput();
  const xml = buildNewReleaseMessage(input);
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
  expect(xml).toContain('ReleaseProfileVersionId="Audio"');
  const isrcs = input.release.recordings.map((r) => r.isrc);
  expect(new Set(isrcs).size).toBe(12);
  expect(all(xml, 'ISRC')).toEqual(isrcs);
  // Track order lives only in the resource group: disc 1 holds A1–A7 numbered 1–7, disc 2 A8–A12 numbered 1–5.
  const group = xml.slice(xml.indexOf('<ResourceGroup>'), xml.lastIndexOf('</ResourceGroup>'));
  const discs = group.split('<ResourceGroup ResourceGroupType="Component">').slice(1);
  expect(discs).toHaveLength(2);
  expect(discs.map((d) => all(d, 'ReleaseResourceReference'))).toEqual([
    ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7'],
    ['A8', 'A9', 'A10', 'A11', 'A12'],
  ]);
  expect(discs.map((d) => all(d, 'SequenceNumber'))).toEqual([
    ['1', '1', '2', '3', '4', '5', '6', '7'],
    ['2', '1', '2', '3', '4', '5'],
  ]);
  // One TrackRelease per recording, R2…R13, its id the ISRC and the UPC together.
  const trackReleases = xml.split('<TrackRelease>').slice(1);
  expect(trackReleases).toHaveLength(12);
  expect(trackReleases.map((t) => all(t, 'ReleaseResourceReference')[0])).toEqual(
    isrcs.map((_, i) => `A${i + 1}`),
  );
  expect(trackReleases.map((t) => all(t, 'ProprietaryId')[0])).toEqual(
    isrcs.map((isrc) => `${isrc}196000000012`),
  );
  expect(all(xml, 'ReleaseReference')).toEqual(['R1', ...isrcs.map((_, i) => `R${i + 2}`)]);
  // The featured artists are on their tracks' display lines; the explicit track makes the release explicit.
  expect(all(xml, 'DisplayArtistName')).toContain('Luna Vega feat. Kai Stone');
  expect(all(xml, 'DisplayArtistName')).toContain('Luna Vega feat. Mira Sol');
  expect(all(xml, 'ParentalWarningType').filter((w) => w === 'Explicit')).toHaveLength(2);
  expectConsistentReferences(xml);
});
