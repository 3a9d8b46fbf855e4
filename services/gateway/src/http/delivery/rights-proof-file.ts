// What a proof of rights file really is, from its first bytes (the name and the browser's type are only
// claims): PDF, PNG and JPEG by their magic numbers; text when the bytes are UTF-8 without control
// characters. Anything else is refused, so an admin never downloads an executable dressed as a licence.
import type { RIGHTS_PROOF_TYPES } from '@omni/proto/api';

export type RightsProofType = (typeof RIGHTS_PROOF_TYPES)[number];

/** How many leading bytes the sniff reads. */
export const SNIFF_BYTES = 4096;

const startsWith = (bytes: Uint8Array, magic: readonly number[]) =>
  bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/** Tab, line feed, form feed and carriage return are text; other C0 controls (NUL above all) and DEL are not. */
const isControl = (b: number) =>
  (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f;

function isText(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.some(isControl)) return false;
  try {
    // stream: a character cut by the sniff's end is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

export function sniffRightsProof(head: Uint8Array): RightsProofType | null {
  if (startsWith(head, PDF)) return 'application/pdf';
  if (startsWith(head, PNG)) return 'image/png';
  if (startsWith(head, JPEG)) return 'image/jpeg';
  return isText(head) ? 'text/plain' : null;
}

/** A filename for Content-Disposition: ASCII fallback plus the UTF-8 name (RFC 6266). */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'proof';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
