// One-time handoff codes: how a session made on the server (the Google callback) reaches the web app
// without a token in any URL. The browser is redirected with `?handoff=<code>` and trades the code for the
// session once, within a minute.
//
// The store holds neither the code nor a readable session: the document's id is the code's SHA-256 and
// the session is sealed (AES-256-GCM) with a key derived from the code, so the data folder or a database
// dump signs nobody in. Redeeming is one conditional update (unused and unexpired → used, payload wiped),
// so two requests racing with the same code get one session between them.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Doc, DocumentStore } from '@omni/platform';
import type { identity } from '@omni/proto';

export const HANDOFF_TTL_SECONDS = 60;

export interface HandoffDoc extends Doc {
  /** iv.ciphertext.tag, base64url; '' once redeemed. */
  sealed: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

const digest = (label: string, code: string) =>
  createHash('sha256').update(`${label}\0${code}`, 'utf8').digest();
const idOf = (code: string) => digest('omni handoff id', code).toString('hex');
const keyOf = (code: string) => digest('omni handoff key', code);

function seal(code: string, session: identity.Session): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(code), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}

function open(code: string, sealed: string): identity.Session | null {
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

export class Handoffs {
  private readonly handoffs;

  constructor(
    store: DocumentStore,
    private readonly now: () => number = Date.now,
  ) {
    this.handoffs = store.collection<HandoffDoc>('handoffs', { indexes: [{ fields: { expiresAt: 1 } }] });
  }

  /** Parks the session and returns the code that redeems it. */
  async issue(session: identity.Session): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    const now = this.now();
    // Unredeemed handoffs are useless after a minute; drop them as new ones arrive.
    await this.handoffs.deleteMany({ expiresAt: { $lt: new Date(now - 60_000).toISOString() } });
    await this.handoffs.insertOne({
      _id: idOf(code),
      sealed: seal(code, session),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + HANDOFF_TTL_SECONDS * 1000).toISOString(),
      usedAt: null,
    });
    return code;
  }

  /** The session, once; null when the code is unknown, expired or already redeemed. */
  async redeem(code: string): Promise<identity.Session | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(code)) return null;
    const now = new Date(this.now()).toISOString();
    const spent = await this.handoffs.findOneAndUpdate(
      { _id: idOf(code), usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now, sealed: '' } },
      { returnDocument: 'before' },
    );
    return spent ? open(code, spent.sealed) : null;
  }
}
