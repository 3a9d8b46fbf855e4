// A store's acknowledgement file: build (the store simulator writes it) and parse (the pipeline reads it).
// Shaped like DDEX ECHO's FtpAcknowledgementMessage, namespace-free like our BatchComplete:
//
//   <FtpAcknowledgementMessage>
//     <MessageHeader>
//       <MessageId>ACK-<batchId>-<messageId></MessageId>
//       <MessageSender>   <PartyId/><PartyName/> </MessageSender>     (the store)
//       <MessageRecipient><PartyId/><PartyName/> </MessageRecipient>  (the distributor)
//       <MessageCreatedDateTime>ISO 8601</MessageCreatedDateTime>
//     </MessageHeader>
//     <BatchId/>
//     <MessageId/>                       (the acknowledged message's)
//     <AcknowledgedFile>path in the batch folder</AcknowledgedFile>
//     <FileStatus>FileOK | ResourceCorrupt | ResourceMissing | SchemaValidationError</FileStatus>
//     <ReleaseStatus>
//       <ReleaseId>ICPN</ReleaseId>*
//       <Status>SuccessfullyIngestedByReleaseDistributor | ProcessingErrorAtReleaseDistributor</Status>
//       <ErrorText/>?
//       <ManualCheckRequired>true|false</ManualCheckRequired>
//     </ReleaseStatus>
//   </FtpAcknowledgementMessage>
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { ErnMessagingParty } from '../ddex/model';
import { children, element, optionalText, readXmlRoot, text } from '../xml/read';
import type { AckFileStatus, AckReleaseStatus, StoreAcknowledgement } from './model';

export interface AckParties {
  /** The store writing the acknowledgement. */
  sender: ErnMessagingParty;
  /** The distributor it answers. */
  recipient: ErnMessagingParty;
}

const FILE_STATUSES: readonly AckFileStatus[] = [
  'FileOK',
  'ResourceCorrupt',
  'ResourceMissing',
  'SchemaValidationError',
];
const RELEASE_STATUSES: readonly AckReleaseStatus[] = [
  'SuccessfullyIngestedByReleaseDistributor',
  'ProcessingErrorAtReleaseDistributor',
];

export function buildAcknowledgement(ack: StoreAcknowledgement, parties: AckParties): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('FtpAcknowledgementMessage');
  const header = root.ele('MessageHeader');
  header.ele('MessageId').txt(`ACK-${ack.batchId}-${ack.messageId}`);
  party(header, 'MessageSender', parties.sender);
  party(header, 'MessageRecipient', parties.recipient);
  header.ele('MessageCreatedDateTime').txt(ack.acknowledgedAt);
  root.ele('BatchId').txt(ack.batchId);
  root.ele('MessageId').txt(ack.messageId);
  root.ele('AcknowledgedFile').txt(ack.fileName);
  root.ele('FileStatus').txt(ack.fileStatus);
  const release = root.ele('ReleaseStatus');
  for (const id of ack.releaseIds) release.ele('ReleaseId').txt(id);
  release.ele('Status').txt(ack.releaseStatus);
  if (ack.errorText) release.ele('ErrorText').txt(ack.errorText);
  release.ele('ManualCheckRequired').txt(String(ack.manualCheckRequired));
  return root.end({ prettyPrint: true });
}

function party(parent: XMLBuilder, name: string, value: ErnMessagingParty) {
  const node = parent.ele(name);
  node.ele('PartyId').txt(value.partyId);
  node.ele('PartyName').txt(value.name);
}

/** Reads an acknowledgement; a malformed one is refused with an Error saying what is wrong. */
export function parseAcknowledgement(xml: string): StoreAcknowledgement {
  const where = 'FtpAcknowledgementMessage';
  const root = readXmlRoot(xml, where, 'store acknowledgement');
  const header = element(root, 'MessageHeader', where);
  const fileStatus = text(root, 'FileStatus', where);
  if (!FILE_STATUSES.includes(fileStatus as AckFileStatus)) {
    throw new Error(`${where}: FileStatus "${fileStatus}" is not one of ${FILE_STATUSES.join(', ')}`);
  }
  const release = element(root, 'ReleaseStatus', where);
  const status = text(release, 'Status', `${where}/ReleaseStatus`);
  if (!RELEASE_STATUSES.includes(status as AckReleaseStatus)) {
    throw new Error(
      `${where}/ReleaseStatus: Status "${status}" is not one of ${RELEASE_STATUSES.join(', ')}`,
    );
  }
  const manual = text(release, 'ManualCheckRequired', `${where}/ReleaseStatus`);
  if (manual !== 'true' && manual !== 'false') {
    throw new Error(`${where}/ReleaseStatus: ManualCheckRequired must be true or false, not "${manual}"`);
  }
  const errorText = optionalText(release, 'ErrorText');
  return {
    batchId: text(root, 'BatchId', where),
    messageId: text(root, 'MessageId', where),
    fileName: text(root, 'AcknowledgedFile', where),
    fileStatus: fileStatus as AckFileStatus,
    releaseStatus: status as AckReleaseStatus,
    ...(errorText ? { errorText } : {}),
    manualCheckRequired: manual === 'true',
    releaseIds: children(release, 'ReleaseId').filter((v): v is string => typeof v === 'string' && v !== ''),
    acknowledgedAt: text(header, 'MessageCreatedDateTime', `${where}/MessageHeader`),
  };
}
