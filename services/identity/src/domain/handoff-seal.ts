// How a handoff code protects the session it stands for (store/handoffs.ts keeps them): the document's id
// is the code's SHA-256 and the session is sealed (AES-256-GCM) with a key derived from the code, so the
// data folder or a database dump signs nobody in.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { identity } from '@omni/proto';

/** A fresh handoff code: 32 random bytes, URL-safe. */
export const newHandoffCode = (): string => randomBytes(32).toString('base64url');

/** Whether a string could be a code we issued; anything else is refused before the store is asked. */
export const isWellFormedCode = (code: string): boolean => /^[A-Za-z0-9_-]{20,100}$/.test(code);

const digest = (label: string, code: string) =>
  createHash('sha256').update(`${label}\0${code}`, 'utf8').digest();
export const handoffId = (code: string) => digest('omni handoff id', code).toString('hex');
const keyOf = (code: string) => digest('omni handoff key', code);

export function sealSession(code: string, session: identity.Session): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(code), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}

export function openSession(code: string, sealed: string): identity.Session | null {
  const [iv, body, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !body || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(code), iv);
    decipher.setAuthTag(tag);
    return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'));
  } catch {
    return null;
  }
}
