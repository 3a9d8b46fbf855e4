// A proof of rights is judged by its first bytes: a PDF, PNG or JPEG by its magic number, text by being
// UTF-8 without control characters; a renamed binary is refused whatever its name says.
import { attachmentHeader, sniffRightsProof } from '../src/http/delivery/rights-proof-file';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));

describe('sniffRightsProof', () => {
  it.each([
    ['a PDF', bytes('%PDF-1.7\n'), 'application/pdf'],
    ['a PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
    ['a JPEG', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
    ['UTF-8 text', bytes('Licence — signed by both parties.\r\n\tPaid in full.\n'), 'text/plain'],
  ])('takes %s', (_name, head, type) => {
    expect(sniffRightsProof(head)).toBe(type);
  });

  it('takes text whose last character the sniff cut in half', () => {
    const text = Buffer.from('Licence é');
    expect(sniffRightsProof(new Uint8Array(text.subarray(0, text.length - 1)))).toBe('text/plain');
  });

  it.each([
    ['an ELF binary', bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])],
    ['a zip archive', bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0])],
    ['a GIF', bytes('GIF89a', [1, 0, 1, 0, 0])],
    ['text with a NUL', bytes('abc', [0], 'def')],
    ['bytes that are not UTF-8', bytes([0xc3, 0x28, 0x41])],
    ['an empty file', bytes()],
  ])('refuses %s', (_name, head) => {
    expect(sniffRightsProof(head)).toBeNull();
  });
});

describe('attachmentHeader', () => {
  it('gives an ASCII fallback and the UTF-8 name, without quotes that end the value early', () => {
    expect(attachmentHeader('licence "final" ©.pdf')).toBe(
      `attachment; filename="licence _final_ _.pdf"; filename*=UTF-8''licence%20%22final%22%20%C2%A9.pdf`,
    );
  });
});
