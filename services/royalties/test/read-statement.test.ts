// The one entry imports use: the source picks the reader, the header comes first, and a refusal reaches
// whoever asks (the header, the items, or both) without an unhandled rejection.
import { StatementRefused } from '../src/domain/statements/line';
import { readStatement } from '../src/domain/statements/read-statement';
import { collect, streamOf } from './support/statements';

const DISTROKID =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)\n' +
  '2023-02-02\t2021-04\tNapster\tArtist 1\tSong 1\tAAAAA1234567\t111111111111\t1\t100\tSong\tUS\t0\t0.00789993\n';

describe('readStatement', () => {
  it('reads a CSV source through its template and opens the file once', async () => {
    let opened = 0;
    const statement = readStatement('distrokid', () => {
      opened += 1;
      return streamOf(DISTROKID);
    });
    const { header, lines } = await collect(statement);
    expect(opened).toBe(1);
    expect(header.messageId).toBeNull();
    expect(lines.map((l) => [l.store, l.amountAcct])).toEqual([['Napster', 7_899_930n]]);
  });

  it('gives the header before anyone iterates, and the items after it without reading twice', async () => {
    const statement = readStatement('distrokid', () => streamOf(DISTROKID, 3));
    const header = await statement.header;
    expect(header).toEqual({
      sender: null,
      messageId: null,
      periodStart: null,
      periodEnd: null,
      reportedAt: null,
    });
    const items = [];
    for await (const item of statement.items) items.push(item);
    expect(items).toHaveLength(1);
    expect(() => statement.items[Symbol.asyncIterator]()).toThrow('A statement can be iterated once.');
  });

  it('refuses a DSR named as a CSV source and a CSV named as a DSR', async () => {
    const dsr = readStatement('dsr', () => streamOf(DISTROKID));
    await expect(dsr.header).rejects.toBeInstanceOf(StatementRefused);
    const iterator = dsr.items[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow(/does not start with a DDEX DSR header record/);

    const csv = readStatement('tunecore', () => streamOf('HEAD\tdsrf/30\tBasicAudioProfile\t1.2\n'));
    await expect(collect(csv)).rejects.toThrow(/does not have the columns of a TuneCore CSV/);
  });

  it('stops reading and closes the file when the caller stops early', async () => {
    const many = DISTROKID + DISTROKID.split('\n')[1]!.concat('\n').repeat(5000);
    const stream = streamOf(many, 64);
    const statement = readStatement('distrokid', () => stream);
    let seen = 0;
    for await (const _ of statement.items) {
      seen += 1;
      if (seen === 3) break;
    }
    expect(seen).toBe(3);
    expect(stream.destroyed).toBe(true);
  });
});
