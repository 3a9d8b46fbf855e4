// ReleaseList: the one release (UPC as ICPN, label, ℗/©, genre, date, parental warning) and its resource
// group: the recordings in play order, the cover linked as its art.
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { addDisplayArtists, addLine, addTitles, parentalWarning } from './elements';
import type { ErnRelease } from './model';
import { type ErnReferences, RELEASE_REFERENCE } from './references';

export function addReleaseList(root: XMLBuilder, release: ErnRelease, refs: ErnReferences): void {
  const node = root.ele('ReleaseList').ele('Release');
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
  const explicit = release.explicit || release.recordings.some((r) => r.explicit);
  node.ele('ParentalWarningType').txt(parentalWarning(explicit));

  const group = node.ele('ResourceGroup');
  release.recordings.forEach((_, i) => {
    const item = group.ele('ResourceGroupContentItem');
    item.ele('SequenceNumber').txt(String(i + 1));
    item.ele('ReleaseResourceReference').txt(refs.recording(i));
  });
  group.ele('LinkedReleaseResourceReference', { LinkDescription: 'CoverArt' }).txt(refs.cover);
}
