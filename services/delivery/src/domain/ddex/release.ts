// ReleaseList: the release (UPC as ICPN, label, ℗/©, genre, date, parental warning) and its resource group:
// the recordings in play order (a nested group per disc when there is more than one), the cover linked as
// its art; then, in the Audio profile, one TrackRelease per recording (ERN 4.3 Release Profiles §6.2), its
// id the ISRC and the UPC together as a ProprietaryId (ISRC is not a release id in DDEX: §7.3).
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { addDisplayArtists, addLine, addTitles, parentalWarning } from './elements';
import type { ErnRelease } from './model';
import { type ErnReferences, RELEASE_REFERENCE } from './references';

export interface ReleaseListOptions {
  /** One TrackRelease per recording (the Audio profile; not SimpleAudioSingle). */
  trackReleases: boolean;
  /** Namespace of our proprietary ids. */
  namespace: string;
}

export function addReleaseList(
  root: XMLBuilder,
  release: ErnRelease,
  refs: ErnReferences,
  options: ReleaseListOptions,
): void {
  const list = root.ele('ReleaseList');
  const node = list.ele('Release', release.language ? { LanguageAndScriptCode: release.language } : {});
  node.ele('ReleaseReference').txt(RELEASE_REFERENCE);
  node.ele('ReleaseType').txt(release.type);
  node.ele('ReleaseId').ele('ICPN').txt(release.upc);
  addTitles(node, release.title);
  addDisplayArtists(node, release.artists, refs);
  node.ele('ReleaseLabelReference').txt(refs.party(release.label));
  addLine(node, 'PLine', release.pLine);
  addLine(node, 'CLine', release.cLine);
  node.ele('Genre').ele('GenreText').txt(release.genre);
  node.ele('ReleaseDate').txt(release.releaseDate);
  if (release.visibility) node.ele('ReleaseVisibilityReference').txt(release.visibility.reference);
  const explicit = release.explicit || release.recordings.some((r) => r.explicit);
  node.ele('ParentalWarningType').txt(parentalWarning(explicit));
  addResourceGroup(node, release, refs);
  if (!options.trackReleases) return;
  release.recordings.forEach((recording, i) => {
    const track = list.ele('TrackRelease');
    track.ele('ReleaseReference').txt(refs.trackRelease(i));
    track
      .ele('ReleaseId')
      .ele('ProprietaryId', { Namespace: options.namespace })
      .txt(`${recording.isrc}${release.upc}`);
    addTitles(track, recording.title);
    track.ele('ReleaseResourceReference').txt(refs.recording(i));
    track.ele('ReleaseLabelReference').txt(refs.party(release.label));
    track.ele('Genre').ele('GenreText').txt(release.genre);
  });
}

/**
 * The only place DDEX keeps track order: content items numbered 1..n in play order, inside one nested
 * group per disc (numbered from 1) when the release has more than one.
 */
function addResourceGroup(node: XMLBuilder, release: ErnRelease, refs: ErnReferences): void {
  const group = node.ele('ResourceGroup');
  const discs = new Map<number, number[]>();
  release.recordings.forEach((r, i) => {
    const disc = r.discNumber ?? 1;
    discs.set(disc, [...(discs.get(disc) ?? []), i]);
  });
  const items = (parent: XMLBuilder, indexes: readonly number[]) =>
    indexes.forEach((index, n) => {
      const item = parent.ele('ResourceGroupContentItem');
      item.ele('SequenceNumber').txt(String(n + 1));
      item.ele('ReleaseResourceReference').txt(refs.recording(index));
    });
  if (discs.size <= 1)
    items(
      group,
      release.recordings.map((_, i) => i),
    );
  else
    for (const [disc, indexes] of [...discs].sort((a, b) => a[0] - b[0])) {
      const component = group.ele('ResourceGroup', { ResourceGroupType: 'Component' });
      component.ele('SequenceNumber').txt(String(disc));
      items(component, indexes);
    }
  group.ele('LinkedReleaseResourceReference', { LinkDescription: 'CoverArt' }).txt(refs.cover);
}
