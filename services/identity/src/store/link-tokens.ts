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
  /** '' for a magic link to an address no account has yet: following it creates the account. */
  userId: string;
  /**
   * The address the link was mailed to, where it matters: a magic link for a new account (which address
   * to create it for), an email change (the new address, which becomes the account's once followed).
   */
  email?: string;
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

  async issue(purpose: LinkPurpose, userId: string, email?: string): Promise<string> {
    const token = newLinkToken();
    const now = this.now();
    await this.links.insertOne({
      _id: linkTokenId(token),
      purpose,
      userId,
      ...(email ? { email } : {}),
      createdAt: new Date(now).toISOString(),
      expiresAt: linkExpiry(purpose, now).toISOString(),
      usedAt: null,
    });
    return token;
  }

  /** Spends the link and returns whose it was, or null when unknown, expired, used or of another kind. */
  async consume(purpose: LinkPurpose, token: string): Promise<string | null> {
    return (await this.spend(purpose, token))?.userId ?? null;
  }

  /** Spends the link and returns it whole (with the address it carries), or null as `consume`. */
  async spend(purpose: LinkPurpose, token: string): Promise<LinkTokenDoc | null> {
    if (!isWellFormedToken(token)) return null;
    const now = new Date(this.now()).toISOString();
    return this.links.findOneAndUpdate(
      { _id: linkTokenId(token), purpose, usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now } },
    );
  }

  /** Whether the link would still work, without spending it (a page checks before asking for input). */
  async usable(purpose: LinkPurpose, token: string): Promise<boolean> {
    if (!isWellFormedToken(token)) return false;
    const found = await this.links.findOne({
      _id: linkTokenId(token),
      purpose,
      usedAt: null,
      expiresAt: { $gt: new Date(this.now()).toISOString() },
    });
    return !!found;
  }

  /** After a password reset, the other reset links of that user must not work either. */
  async spendAll(purpose: LinkPurpose, userId: string): Promise<void> {
    await this.links.updateMany(
      { userId, purpose, usedAt: null },
      { $set: { usedAt: new Date(this.now()).toISOString() } },
    );
  }
}
