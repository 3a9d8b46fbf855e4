// The XSD check refuses broken messages with errors a person can act on (line and what was expected).
import { buildNewReleaseMessage, createErnValidator, type ErnValidator } from '../src/domain/ddex';
import { singleInput } from './support/ern-fixtures';

let validator: ErnValidator;
beforeAll(() => {
  validator = createErnValidator();
});
afterAll(() => validator.close());

const lineOf = (xml: string, needle: string) => xml.slice(0, xml.indexOf(needle)).split('\n').length;

test('a recording without its ISRC fails, at the line of the empty ResourceId (the XSD alone allows it)', async () => {
  const good = buildNewReleaseMessage(singleInput());
  const xml = good.replace(/<ISRC>[^<]*<\/ISRC>/, '');
  const result = await validator.validate(xml);
  expect(result.valid).toBe(false);
  expect(result.errors).toEqual([
    expect.objectContaining({
      line: lineOf(xml, '<ResourceId>'),
      message: expect.stringContaining('ResourceId'),
    }),
  ]);
  expect(result.errors[0]!.message).toMatch(/no ISRC/);
});

test('children out of the schema order fail with what was expected instead', async () => {
  const good = buildNewReleaseMessage(singleInput());
  // Duration must come before ParentalWarningType in a SoundRecording.
  const xml = good.replace(
    /(\s*<Duration>[^<]*<\/Duration>)(\s*<ParentalWarningType>[^<]*<\/ParentalWarningType>)/,
    '$2$1',
  );
  expect(xml).not.toBe(good);
  const result = await validator.validate(xml);
  expect(result.valid).toBe(false);
  expect(result.errors[0]).toEqual({
    line: lineOf(xml, '<ParentalWarningType>'),
    message: expect.stringMatching(
      /Element 'ParentalWarningType': This element is not expected\. Expected is .*Duration/,
    ),
  });
});

test('text that is not XML at all fails with the parser error and its line', async () => {
  const result = await validator.validate(
    '<?xml version="1.0"?>\n<ern:NewReleaseMessage>\n<Oops></ern:NewReleaseMessage>',
  );
  expect(result.valid).toBe(false);
  expect(result.errors.length).toBeGreaterThan(0);
  expect(result.errors[0]!.line).toBeGreaterThan(0);
});

test('one validator serves many messages at once', async () => {
  const xml = buildNewReleaseMessage(singleInput());
  const results = await Promise.all(Array.from({ length: 20 }, () => validator.validate(xml)));
  expect(results.every((r) => r.valid)).toBe(true);
});
