// PartyList: every artist, contributor and the label, each once, named (we have no ISNI/DPID for artists).
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { ErnReferences } from './references';

export function addPartyList(root: XMLBuilder, refs: ErnReferences): void {
  const list = root.ele('PartyList');
  for (const party of refs.parties) {
    const node = list.ele('Party');
    node.ele('PartyReference').txt(party.reference);
    node.ele('PartyName').ele('FullName').txt(party.name);
  }
}
