// The BatchComplete manifest: build and parse. DDEX publishes no XSD for it that we hold, so the shape is
// our own, namespace-free, and both ends (our pipeline, the store simulator, a real store's agreement)
// read it by these names:
//
//   <BatchComplete>
//     <BatchId>YYYYMMDDhhmmssnnn</BatchId>
//     <MessageSender><PartyId>PADPIDA…</PartyId><PartyName>Omni</PartyName></MessageSender>
//     <MessageRecipient><PartyId>PADPIDA…</PartyId><PartyName>Store</PartyName></MessageRecipient>
//     <MessageCreatedDateTime>ISO 8601 with offset</MessageCreatedDateTime>
//     <Message>                                  (one per message in the batch, at least one)
//       <Path><upc>/<upc>.xml</Path>             (relative to the batch folder)
//       <MessageId>…</MessageId>
//       <ReleaseId>ICPN</ReleaseId>              (one per release in the message)
//       <HashSum><Algorithm>SHA-256</Algorithm><HashSumValue>hex</HashSumValue></HashSum>
//     </Message>
//   </BatchComplete>
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { children, element, readXmlRoot, text, type XmlNode } from '../xml/read';
import type { BatchCompleteInput, BatchCompleteMessage } from './batch-complete-model';
import type { ErnMessagingParty } from './model';

const BATCH_ID = /^\d{17}$/;
const SHA256 = /^[0-9a-f]{64}$/;

export function buildBatchComplete(input: BatchCompleteInput): string {
  if (!BATCH_ID.test(input.batchId)) throw new Error(`batch id "${input.batchId}" is not YYYYMMDDhhmmssnnn`);
  if (input.messages.length === 0) throw new Error('a batch lists at least one message');
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('BatchComplete');
  root.ele('BatchId').txt(input.batchId);
  party(root, 'MessageSender', input.sender);
  party(root, 'MessageRecipient', input.recipient);
  root.ele('MessageCreatedDateTime').txt(input.createdAt);
  for (const message of input.messages) {
    const node = root.ele('Message');
    node.ele('Path').txt(message.path);
    node.ele('MessageId').txt(message.messageId);
    for (const id of message.releaseIds) node.ele('ReleaseId').txt(id);
    const hash = node.ele('HashSum');
    hash.ele('Algorithm').txt('SHA-256');
    hash.ele('HashSumValue').txt(message.sha256.toLowerCase());
  }
  return root.end({ prettyPrint: true });
}

function party(parent: XMLBuilder, name: string, value: ErnMessagingParty) {
  const node = parent.ele(name);
  node.ele('PartyId').txt(value.partyId);
  node.ele('PartyName').txt(value.name);
}

/** Reads a manifest; a malformed one is refused with an Error saying what is wrong and where. */
export function parseBatchComplete(xml: string): BatchCompleteInput {
  const root = readXmlRoot(xml, 'BatchComplete', 'BatchComplete manifest');
  const where = 'BatchComplete';
  const batchId = text(root, 'BatchId', where);
  if (!BATCH_ID.test(batchId)) throw new Error(`${where}: BatchId "${batchId}" is not YYYYMMDDhhmmssnnn`);
  const messages = children(root, 'Message').map((value, i) =>
    readMessage(asNode(value, `${where}/Message[${i + 1}]`), `${where}/Message[${i + 1}]`),
  );
  if (messages.length === 0) throw new Error(`${where}: lists no Message`);
  return {
    batchId,
    sender: readParty(root, 'MessageSender', where),
    recipient: readParty(root, 'MessageRecipient', where),
    createdAt: text(root, 'MessageCreatedDateTime', where),
    messages,
  };
}

function readParty(root: XmlNode, name: string, where: string): ErnMessagingParty {
  const node = element(root, name, where);
  return {
    partyId: text(node, 'PartyId', `${where}/${name}`),
    name: text(node, 'PartyName', `${where}/${name}`),
  };
}

function readMessage(node: XmlNode, where: string): BatchCompleteMessage {
  const path = text(node, 'Path', where);
  if (path.startsWith('/') || path.split('/').includes('..')) {
    throw new Error(`${where}: Path "${path}" must be relative to the batch folder`);
  }
  const hash = element(node, 'HashSum', where);
  const algorithm = text(hash, 'Algorithm', `${where}/HashSum`);
  if (algorithm !== 'SHA-256')
    throw new Error(`${where}/HashSum: Algorithm must be SHA-256, not ${algorithm}`);
  const sha256 = text(hash, 'HashSumValue', `${where}/HashSum`).toLowerCase();
  if (!SHA256.test(sha256)) throw new Error(`${where}/HashSum: HashSumValue is not a hex SHA-256`);
  const releaseIds = children(node, 'ReleaseId').map((v) => (typeof v === 'string' ? v : ''));
  if (releaseIds.some((id) => !id)) throw new Error(`${where}: a ReleaseId is empty`);
  return { path, messageId: text(node, 'MessageId', where), releaseIds, sha256 };
}

function asNode(value: unknown, where: string): XmlNode {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${where} is empty`);
  }
  return value as XmlNode;
}
