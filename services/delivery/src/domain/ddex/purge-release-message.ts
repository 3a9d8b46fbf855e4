// PurgeReleaseMessage (ERN 4.3): removes a release from a store completely, identified by its UPC (ICPN).
import { addMessageHeader, ernRoot, serialize } from './header';
import type { ErnPurgeInput } from './model';

export function buildPurgeReleaseMessage(input: ErnPurgeInput): string {
  const root = ernRoot('PurgeReleaseMessage');
  addMessageHeader(root, input.header);
  const purged = root.ele('PurgedRelease');
  purged.ele('ReleaseId').ele('ICPN').txt(input.upc);
  purged.ele('Title').ele('TitleText').txt(input.title);
  return serialize(root);
}
