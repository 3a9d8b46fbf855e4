// Store acknowledgements and BatchComplete manifests survive a round trip, and malformed ones are refused
// with a message saying what is wrong.
import { buildAcknowledgement, parseAcknowledgement, type StoreAcknowledgement } from '../src/domain/ack';
import { type BatchCompleteInput, buildBatchComplete, parseBatchComplete } from '../src/domain/ddex';

const parties = {
  sender: { partyId: 'PADPIDA2011072101T', name: 'Example Store' },
  recipient: { partyId: 'PADPIDA2026112401O', name: 'Omni Distribution' },
};

const ack = (over: Partial<StoreAcknowledgement> = {}): StoreAcknowledgement => ({
  batchId: '20261124013000123',
  messageId: 'omni-20261124-0001',
  fileName: '0196000000012/0196000000012.xml',
  fileStatus: 'FileOK',
  releaseStatus: 'SuccessfullyIngestedByReleaseDistributor',
  manualCheckRequired: false,
  releaseIds: ['0196000000012'],
  acknowledgedAt: '2026-11-24T01:30:05.000Z',
  ...over,
});

describe('acknowledgement XML', () => {
  test.each<[string, Partial<StoreAcknowledgement>]>([
    ['FileOK + SuccessfullyIngested', {}],
    [
      'ResourceCorrupt',
      {
        fileStatus: 'ResourceCorrupt',
        releaseStatus: 'ProcessingErrorAtReleaseDistributor',
        errorText: 'resources/a.flac: SHA-256 differs from the message',
      },
    ],
    [
      'ResourceMissing',
      {
        fileStatus: 'ResourceMissing',
        releaseStatus: 'ProcessingErrorAtReleaseDistributor',
        errorText: 'gone',
      },
    ],
    [
      'SchemaValidationError',
      {
        fileStatus: 'SchemaValidationError',
        releaseStatus: 'ProcessingErrorAtReleaseDistributor',
        errorText: "line 3: Element 'Oops' is not expected <&>",
        manualCheckRequired: true,
      },
    ],
    [
      'ProcessingError with a manual check',
      {
        releaseStatus: 'ProcessingErrorAtReleaseDistributor',
        errorText: 'Artwork rejected',
        manualCheckRequired: true,
      },
    ],
  ])('%s round-trips', (_name, over) => {
    const original = ack(over);
    const xml = buildAcknowledgement(original, parties);
    expect(xml).toContain('<FtpAcknowledgementMessage>');
    expect(xml).toContain('<PartyId>PADPIDA2011072101T</PartyId>');
    expect(parseAcknowledgement(xml)).toEqual(original);
  });

  test('malformed acknowledgements are refused with what is wrong', () => {
    const good = buildAcknowledgement(ack(), parties);
    expect(() => parseAcknowledgement('<FtpAcknowledgementMessage><BatchId>1</FtpAck')).toThrow(
      /store acknowledgement is not well-formed XML \(line 1\)/,
    );
    expect(() => parseAcknowledgement('<Other/>')).toThrow(/root element FtpAcknowledgementMessage/);
    expect(() => parseAcknowledgement(good.replace('FileOK', 'Fine'))).toThrow(
      /FileStatus "Fine" is not one of/,
    );
    expect(() => parseAcknowledgement(good.replace(/<BatchId>.*<\/BatchId>/, ''))).toThrow(
      /FtpAcknowledgementMessage: BatchId is missing/,
    );
    expect(() => parseAcknowledgement(good.replace('>false<', '>maybe<'))).toThrow(
      /ManualCheckRequired must be/,
    );
  });
});

describe('BatchComplete manifest', () => {
  const input = (): BatchCompleteInput => ({
    batchId: '20261124013000123',
    sender: parties.recipient,
    recipient: parties.sender,
    createdAt: '2026-11-24T01:30:00.000Z',
    messages: [
      {
        path: '0196000000012/0196000000012.xml',
        messageId: 'omni-1',
        releaseIds: ['0196000000012'],
        sha256: 'a'.repeat(64),
      },
      {
        path: '0196000000029/0196000000029.xml',
        messageId: 'omni-2',
        releaseIds: [],
        sha256: 'b'.repeat(64),
      },
    ],
  });

  test('round-trips, UPCs keep their leading zeros', () => {
    const xml = buildBatchComplete(input());
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<BatchComplete>/);
    expect(parseBatchComplete(xml)).toEqual(input());
  });

  test('malformed manifests are refused with what is wrong', () => {
    const good = buildBatchComplete(input());
    expect(() => parseBatchComplete('<BatchComplete><BatchId>1</BatchId>')).toThrow(
      /BatchComplete manifest is not well-formed XML/,
    );
    expect(() => parseBatchComplete(good.replace('20261124013000123', '2026'))).toThrow(
      /BatchId "2026" is not YYYYMMDDhhmmssnnn/,
    );
    expect(() => parseBatchComplete(good.replace(/<Message>[\s\S]*<\/Message>/, ''))).toThrow(
      /lists no Message/,
    );
    expect(() => parseBatchComplete(good.replace('<Path>0196000000012/', '<Path>../'))).toThrow(
      /Message\[1\]: Path "..\/0196000000012.xml" must be relative/,
    );
    expect(() => parseBatchComplete(good.replace('a'.repeat(64), 'xyz'))).toThrow(
      /Message\[1\]\/HashSum: HashSumValue is not a hex SHA-256/,
    );
    expect(() =>
      parseBatchComplete(good.replace(/<MessageRecipient>[\s\S]*<\/MessageRecipient>/, '')),
    ).toThrow(/MessageRecipient is missing/);
  });
});
