// The root element and MessageHeader every ERN 4.3 message shares.
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { ErnMessageHeader, ErnMessagingParty } from './model';

export const ERN_NAMESPACE = 'http://ddex.net/xml/ern/43';
/** The allowed-value-sets version the schema in `ddex/ern43` documents (its AvsVersionId). */
export const AVS_VERSION_ID = '3';
export const LANGUAGE = 'en';

/**
 * A new document whose root is `ern:<name>`. Only the root is prefixed: the schema's elementFormDefault is
 * unqualified, so every child is built without a namespace.
 */
export function ernRoot(name: string, attributes: Record<string, string> = {}): XMLBuilder {
  return create({ version: '1.0', encoding: 'UTF-8' }).ele(ERN_NAMESPACE, `ern:${name}`, {
    ...attributes,
    AvsVersionId: AVS_VERSION_ID,
    LanguageAndScriptCode: LANGUAGE,
  });
}

function messagingParty(parent: XMLBuilder, element: string, party: ErnMessagingParty) {
  const node = parent.ele(element);
  node.ele('PartyId').txt(party.partyId);
  node.ele('PartyName').ele('FullName').txt(party.name);
}

export function addMessageHeader(root: XMLBuilder, header: ErnMessageHeader): void {
  const node = root.ele('MessageHeader');
  if (header.threadId) node.ele('MessageThreadId').txt(header.threadId);
  node.ele('MessageId').txt(header.messageId);
  messagingParty(node, 'MessageSender', header.sender);
  messagingParty(node, 'MessageRecipient', header.recipient);
  node.ele('MessageCreatedDateTime').txt(header.createdAt);
  node.ele('MessageControlType').txt(header.control ?? 'LiveMessage');
}

export const serialize = (root: XMLBuilder): string => root.end({ prettyPrint: true });
