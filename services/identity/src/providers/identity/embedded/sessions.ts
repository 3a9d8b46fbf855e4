// Refresh tokens of the embedded issuer. Each sign-in starts a family (a session); every refresh spends
// the presented token and issues the next one of the family. A token presented a second time means it was
// copied: the whole family is revoked, so both the thief and the user must sign in again (the user will
// notice; the thief's copy is dead). Only SHA-256 hashes are stored.
import type { Doc, DocumentStore } from '@omni/platform';
import { randomToken, sha256 } from './secrets';

export interface SessionDoc extends Doc {
  userId: string;
  createdAt: string;
  /** Absolute end of the session, whatever the refreshes. */
  expiresAt: string;
  revokedAt: string | null;
}

export interface RefreshTokenDoc extends Doc {
  /** _id is the SHA-256 of the token. */
  sessionId: string;
  userId: string;
  expiresAt: string;
  usedAt: string | null;
}

export type RefreshOutcome =
  | { ok: true; sessionId: string; userId: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'reused' | 'revoked' };

export class SessionStore {
  private readonly sessions;
  private readonly tokens;

  constructor(
    store: DocumentStore,
    private readonly ttl: { refreshSeconds: number; sessionSeconds: number },
  ) {
    this.sessions = store.collection<SessionDoc>('sessions', { indexes: [{ fields: { userId: 1 } }] });
    this.tokens = store.collection<RefreshTokenDoc>('refresh_tokens', {
      indexes: [{ fields: { sessionId: 1 } }, { fields: { expiresAt: 1 } }],
    });
  }

  async start(userId: string): Promise<{ sessionId: string; refreshToken: string }> {
    const now = Date.now();
    const session = await this.sessions.insertOne({
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.ttl.sessionSeconds * 1000).toISOString(),
      revokedAt: null,
    });
    return { sessionId: session._id, refreshToken: await this.issue(session._id, userId) };
  }

  /** Seconds the next refresh token lives: the idle timeout, capped by the session's absolute end. */
  async refreshLifetime(sessionId: string): Promise<number> {
    const session = await this.sessions.findById(sessionId);
    const left = session ? Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000) : 0;
    return Math.max(0, Math.min(this.ttl.refreshSeconds, left));
  }

  private async issue(sessionId: string, userId: string): Promise<string> {
    const token = randomToken();
    const lifetime = await this.refreshLifetime(sessionId);
    await this.tokens.insertOne({
      _id: sha256(token),
      sessionId,
      userId,
      expiresAt: new Date(Date.now() + lifetime * 1000).toISOString(),
      usedAt: null,
    });
    return token;
  }

  /** Spends `token` and returns the next one, or says why it cannot. */
  async rotate(token: string): Promise<RefreshOutcome & { refreshToken?: string }> {
    const id = sha256(token);
    const found = await this.tokens.findById(id);
    if (!found) return { ok: false, reason: 'unknown' };
    const session = await this.sessions.findById(found.sessionId);
    if (!session || session.revokedAt) return { ok: false, reason: 'revoked' };
    if (found.usedAt) {
      await this.revoke(found.sessionId);
      return { ok: false, reason: 'reused' };
    }
    const now = new Date();
    if (Date.parse(found.expiresAt) <= now.getTime() || Date.parse(session.expiresAt) <= now.getTime())
      return { ok: false, reason: 'expired' };
    // Conditional: of two concurrent refreshes with one token, exactly one spends it; the other is a reuse.
    const spent = await this.tokens.updateOne(
      { _id: id, usedAt: null },
      { $set: { usedAt: now.toISOString() } },
    );
    if (spent.modified !== 1) {
      await this.revoke(found.sessionId);
      return { ok: false, reason: 'reused' };
    }
    const refreshToken = await this.issue(found.sessionId, found.userId);
    return { ok: true, sessionId: found.sessionId, userId: found.userId, refreshToken };
  }

  async revokeByToken(token: string): Promise<void> {
    const found = await this.tokens.findById(sha256(token));
    if (found) await this.revoke(found.sessionId);
  }

  async revoke(sessionId: string): Promise<void> {
    await this.sessions.updateOne(
      { _id: sessionId, revokedAt: null },
      { $set: { revokedAt: new Date().toISOString() } },
    );
    await this.tokens.deleteMany({ sessionId, usedAt: null });
  }

  async revokeAllOf(userId: string): Promise<void> {
    for (const s of await this.sessions.find({ userId, revokedAt: null })) await this.revoke(s._id);
  }

  async isActive(sessionId: string): Promise<boolean> {
    const s = await this.sessions.findById(sessionId);
    return !!s && !s.revokedAt && Date.parse(s.expiresAt) > Date.now();
  }
}
