// Small composites the release and its resources share: titles, display artists, ℗/© lines, files.
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { displayArtistName } from './format';
import type { ErnArtist, ErnFile, ErnRightsLine } from './model';
import type { ErnReferences } from './references';

export function addTitles(node: XMLBuilder, title: string): void {
  node.ele('DisplayTitleText').txt(title);
  node.ele('DisplayTitle').ele('TitleText').txt(title);
}

/** DisplayArtistName (the printed line) then each artist with its party and role, in order. */
export function addDisplayArtists(
  node: XMLBuilder,
  artists: readonly ErnArtist[],
  refs: ErnReferences,
): void {
  node.ele('DisplayArtistName').txt(displayArtistName(artists));
  artists.forEach((artist, i) => {
    const el = node.ele('DisplayArtist', { SequenceNumber: String(i + 1) });
    el.ele('ArtistPartyReference').txt(refs.party(artist.name));
    el.ele('DisplayArtistRole').txt(artist.role);
  });
}

export function addLine(node: XMLBuilder, kind: 'PLine' | 'CLine', line: ErnRightsLine): void {
  const el = node.ele(kind);
  el.ele('Year').txt(String(line.year));
  el.ele(`${kind}Text`).txt(line.text);
}

export function addFile(node: XMLBuilder, file: ErnFile): void {
  const el = node.ele('File');
  el.ele('URI').txt(file.uri);
  const hash = el.ele('HashSum');
  hash.ele('Algorithm').txt(file.hash.algorithm);
  hash.ele('HashSumValue').txt(file.hash.value);
  if (file.sizeBytes !== undefined) el.ele('FileSize').txt(String(file.sizeBytes));
}

export const parentalWarning = (explicit: boolean) => (explicit ? 'Explicit' : 'NotExplicit');
