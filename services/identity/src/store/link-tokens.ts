// The single-use links identity mails, kept in the `link_tokens` collection (the rules: domain/link-tokens.ts).
// A link is spent by one conditional update (unused and unexpired → used), so two clicks racing spend it once.
import type { Doc, DocumentStore } from '@omni/platform';
import {
  isWellFormedToken,
  type LinkPurpose,
  linkExpiry,
  linkTokenId,
  newLinkToken,
} from '../domain/link-tokens';

export interface LinkTokenDoc extends Doc {
  purpose: LinkPurpose;
  userId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

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
    const token = newLinkToken();
    const now = this.now();
    await this.links.insertOne({
      _id: linkTokenId(token),
      purpose,
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: linkExpiry(purpose, now).toISOString(),
      usedAt: null,
    });
    return token;
  }

  /** Spends the link and returns whose it was, or null when unknown, expired, used or of another kind. */
  async consume(purpose: LinkPurpose, token: string): Promise<string | null> {
    if (!isWellFormedToken(token)) return null;
    const now = new Date(this.now()).toISOString();
    const spent = await this.links.findOneAndUpdate(
      { _id: linkTokenId(token), purpose, usedAt: null, expiresAt: { $gt: now } },
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
}
