// The single-use links identity mails: email verification, magic link, password reset. The token is 256
// random bits; only its SHA-256 is stored, so the data folder (or a database dump) signs nobody in. A link
// is spent by one conditional update (unused and unexpired → used), so two clicks racing spend it once.
import { createHash, randomBytes } from 'node:crypto';
import type { Doc, DocumentStore } from '@omni/platform';

export type LinkPurpose = 'verify' | 'magic' | 'reset';

export interface LinkTokenDoc extends Doc {
  purpose: LinkPurpose;
  userId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** How long each kind of link works. */
export const LINK_TTL_SECONDS: Record<LinkPurpose, number> = {
  verify: 24 * 3600,
  magic: 15 * 60,
  reset: 30 * 60,
};

const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export class LinkTokens {
  private readonly links;

  constructor(
    store: DocumentStore,
    private readonly now: () => number = Date.now,
  ) {
    this.links = store.collection<LinkTokenDoc>('link_tokens', {
      indexes: [{ fields: { userId: 1, purpose: 1 } }, { fields: { expiresAt: 1 } }],
    });
  }

  async issue(purpose: LinkPurpose, userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.links.insertOne({
      _id: hash(token),
      purpose,
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + LINK_TTL_SECONDS[purpose] * 1000).toISOString(),
      usedAt: null,
    });
    return token;
  }

  /** Spends the link and returns whose it was, or null when unknown, expired, used or of another kind. */
  async consume(purpose: LinkPurpose, token: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const now = new Date(this.now()).toISOString();
    const spent = await this.links.findOneAndUpdate(
      { _id: hash(token), purpose, usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now } },
    );
    return spent?.userId ?? null;
  }

  /** After a password reset, the other reset links of that user must not work either. */
  async spendAll(purpose: LinkPurpose, userId: string): Promise<void> {
    await this.links.updateMany(
      { userId, purpose, usedAt: null },
      { $set: { usedAt: new Date(this.now()).toISOString() } },
    );
  }

  /** Test and tooling hook: move a link's expiry (the contract tests expire links without waiting). */
  async expireAllOf(userId: string): Promise<void> {
    await this.links.updateMany(
      { userId },
      { $set: { expiresAt: new Date(this.now() - 1000).toISOString() } },
    );
  }
}
