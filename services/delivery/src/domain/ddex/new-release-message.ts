// NewReleaseMessage (ERN 4.3): the release for one store, and the takedown, which the standard expresses as
// the same message without deals (there is no takedown message in ERN 4).
import { addDealList } from './deals';
import { addMessageHeader, ernRoot, serialize } from './header';
import type { ErnNewReleaseInput, ErnTakedownInput } from './model';
import { addPartyList } from './parties';
import { assignReferences } from './references';
import { addReleaseList } from './release';
import { addResourceList } from './resources';

export function buildNewReleaseMessage(input: ErnNewReleaseInput): string {
  const { header, release } = input;
  const refs = assignReferences(input);
  const profile =
    release.type === 'Single' && release.recordings.length === 1 ? 'SimpleAudioSingle' : 'Audio';
  const namespace = input.proprietaryIdNamespace ?? `DPID:${header.sender.partyId}`;
  const root = ernRoot('NewReleaseMessage', { ReleaseProfileVersionId: profile });
  // Children in the schema's xs:sequence order: MessageHeader, PartyList, ResourceList, ReleaseList, DealList.
  addMessageHeader(root, header);
  addPartyList(root, refs);
  addResourceList(root, release.recordings, release.cover, namespace, refs);
  addReleaseList(root, release, refs, { trackReleases: profile === 'Audio', namespace });
  addDealList(root, input.deals, release.visibility);
  return serialize(root);
}

export function buildTakedownMessage(input: ErnTakedownInput): string {
  return buildNewReleaseMessage({ ...input, deals: [] });
}
