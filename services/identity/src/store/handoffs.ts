// One-time handoff codes: how a session made on the server (the Google callback) reaches the web app
// without a token in any URL. The browser is redirected with `?handoff=<code>` and trades the code for the
// session once, within a minute.
//
// The store holds neither the code nor a readable session: the document's id is the code's SHA-256 and
// the session is sealed (AES-256-GCM) with a key derived from the code, so the data folder or a database
// dump signs nobody in. Redeeming is one conditional update (unused and unexpired → used, payload wiped),
// so two requests racing with the same code get one session between them.
import type { Doc, DocumentStore } from '@omni/platform';
import type { identity } from '@omni/proto';
import {
  handoffId,
  isWellFormedCode,
  newHandoffCode,
  openSession,
  sealSession,
} from '../domain/handoff-seal';

export const HANDOFF_TTL_SECONDS = 60;

export interface HandoffDoc extends Doc {
  /** iv.ciphertext.tag, base64url; '' once redeemed. */
  sealed: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
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
    const code = newHandoffCode();
    const now = this.now();
    // Unredeemed handoffs are useless after a minute; drop them as new ones arrive.
    await this.handoffs.deleteMany({ expiresAt: { $lt: new Date(now - 60_000).toISOString() } });
    await this.handoffs.insertOne({
      _id: handoffId(code),
      sealed: sealSession(code, session),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + HANDOFF_TTL_SECONDS * 1000).toISOString(),
      usedAt: null,
    });
    return code;
  }

  /** The session, once; null when the code is unknown, expired or already redeemed. */
  async redeem(code: string): Promise<identity.Session | null> {
    if (!isWellFormedCode(code)) return null;
    const now = new Date(this.now()).toISOString();
    const spent = await this.handoffs.findOneAndUpdate(
      { _id: handoffId(code), usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now, sealed: '' } },
      { returnDocument: 'before' },
    );
    return spent ? openSession(code, spent.sealed) : null;
  }
}
