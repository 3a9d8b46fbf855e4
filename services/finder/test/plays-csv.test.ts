// The play-count CSV reader's rules: records split as RFC 4180 says (a newline inside quotes belongs to its
// value), each bad line named by the line it starts on, any line ending, and the same outcome however
// the file is sliced between turns of the event loop.
import { PLAY_SERVICE_TYPE_RULE } from '@omni/proto/api';
import { type PlaysCsvOutcome, PlaysCsvReader, quoteValue } from '../src/domain/plays/read-csv';

const NOW = new Date('2026-11-01T00:00:00Z');

function readAll(text: string, budget = 1000): PlaysCsvOutcome {
  const reader = new PlaysCsvReader(text, NOW);
  while (reader.read(budget)) {
    // a caller yields to the event loop here
  }
  return reader.outcome();
}

const rows = (outcome: PlaysCsvOutcome) => {
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.rows;
};
const refusal = (outcome: PlaysCsvOutcome) => {
  if (outcome.ok) throw new Error('the file was accepted');
  return outcome.message;
};

describe('records', () => {
  it('reads quoted values with commas, doubled quotes and newlines, and names later lines by where they start', () => {
    const text =
      'isrc,territory,"plays"\n"QZQDU2600001","US","1,000"\nQZQDU2600002,"G\nB",5\nQZQDU2600003,"U""S",1\n';
    const outcome = readAll(text);
    expect(refusal(outcome).split('\n')).toEqual([
      'Nothing was imported: 2 lines have problems.',
      'Line 3: territory "G B" is not a two-letter country code like US or GB.',
      'Line 5: territory "U"S" is not a two-letter country code like US or GB.',
    ]);
    expect(rows(readAll('isrc,territory,plays\n"QZQDU2600001","US","1,000"\n'))).toEqual([
      { isrc: 'QZQDU2600001', territory: 'US', plays: 1000 },
    ]);
  });

  it('takes LF, CRLF and bare CR line endings, a byte-order mark and blank lines alike', () => {
    const expected = [
      { isrc: 'QZQDU2600001', territory: 'US', plays: 1 },
      { isrc: 'QZQDU2600002', territory: 'GB', plays: 2 },
    ];
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = `\uFEFFisrc,territory,plays${eol}QZQDU2600001,US,1${eol}${eol}  ${eol}QZQDU2600002,GB,2${eol}`;
      expect({ eol, rows: rows(readAll(text)) }).toEqual({ eol, rows: expected });
    }
  });

  it('a quote that never closes is refused at the line it opens on', () => {
    expect(
      refusal(readAll('isrc,territory,plays\nQZQDU2600001,US,1\n"QZQDU2600002,US,1\nQZQDU2600003,US,1\n')),
    ).toBe('Nothing was imported: 1 line has a problem.\nLine 3: a quoted value is never closed.');
    expect(refusal(readAll('isrc,territory,plays\n"QZQDU2600001"x,US,1\n'))).toMatch(
      /Line 2: a quote is followed by something other than a comma\./,
    );
  });

  it('gives the same outcome however small the slices', () => {
    const text = `isrc,territory,plays,service_type\n${Array.from({ length: 50 }, (_, i) => `QZQDU26${String(i).padStart(5, '0')},US,${i},${i % 7 === 0 ? 'radio' : 'subscription'}`).join('\n')}\n`;
    const whole = readAll(text, 1_000_000);
    for (const budget of [1, 2, 7]) expect(readAll(text, budget)).toEqual(whole);
    expect(refusal(whole).split('\n').slice(0, 2)).toEqual([
      'Nothing was imported: 8 lines have problems.',
      PLAY_SERVICE_TYPE_RULE,
    ]);
  });
});

describe('quoteValue', () => {
  it('quotes short values whole and cuts long ones at 32 characters with "…"', () => {
    expect(quoteValue('USRC1760783')).toBe('"USRC1760783"');
    expect(quoteValue('x'.repeat(100_000))).toBe(`"${'x'.repeat(32)}…"`);
  });

  it('never splits an emoji in two, and shows control characters as spaces', () => {
    const quoted = quoteValue(`${'a'.repeat(31)}🎵🎵`);
    expect(quoted).toBe(`"${'a'.repeat(31)}…"`);
    expect(quoteValue('a\tb\nc')).toBe('"a b c"');
  });
});
