// The rules behind identity's single-use links and Google sign-in handoffs: what is stored can sign nobody
// in (a token's SHA-256, a session sealed with a key only the code gives), and malformed input is refused
// before the store is asked.
import { createHash } from 'node:crypto';
import type { identity } from '@omni/proto';
import {
  handoffId,
  isWellFormedCode,
  newHandoffCode,
  openSession,
  sealSession,
} from '../src/domain/handoff-seal';
import {
  isWellFormedToken,
  LINK_TTL_SECONDS,
  linkExpiry,
  linkTokenId,
  newLinkToken,
} from '../src/domain/link-tokens';

describe('link tokens', () => {
  it('are 256 random bits, URL-safe, and never repeat', () => {
    const tokens = new Set(Array.from({ length: 100 }, newLinkToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(isWellFormedToken(token)).toBe(true);
    }
  });

  it('are stored as their SHA-256, not as themselves', () => {
    const token = newLinkToken();
    expect(linkTokenId(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(linkTokenId(token)).not.toContain(token);
  });

  it('refuse what could not be a token we issued', () => {
    for (const bad of ['', 'short', 'a'.repeat(101), `${'a'.repeat(30)}.$`, `${'a'.repeat(30)}/../`])
      expect(isWellFormedToken(bad)).toBe(false);
  });

  it('expire after their kind’s lifetime: a day to verify, 15 minutes to sign in, 30 to reset', () => {
    const issued = Date.parse('2026-01-01T00:00:00Z');
    expect(linkExpiry('verify', issued).toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(linkExpiry('magic', issued).toISOString()).toBe('2026-01-01T00:15:00.000Z');
    expect(linkExpiry('reset', issued).toISOString()).toBe('2026-01-01T00:30:00.000Z');
    expect(LINK_TTL_SECONDS.magic).toBeLessThan(LINK_TTL_SECONDS.verify);
  });
});

describe('handoff codes', () => {
  const session: identity.Session = {
    accessToken: 'access',
    refreshToken: 'refresh',
    expiresIn: 300,
    refreshExpiresIn: 1800,
    user: { id: 'u1', email: 'a@example.com', emailVerified: true, roles: ['artist'] },
    profile: { displayName: 'A', releaseMails: true, billingMails: false },
  };

  it('open the session they sealed, and only that code does', () => {
    const code = newHandoffCode();
    const sealed = sealSession(code, session);
    expect(sealed).not.toContain('access');
    expect(openSession(code, sealed)).toEqual(session);
    expect(openSession(newHandoffCode(), sealed)).toBeNull();
  });

  it('refuse a tampered or truncated seal', () => {
    const code = newHandoffCode();
    const [iv, body, tag] = sealSession(code, session).split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(openSession(code, [iv, flipped.toString('base64url'), tag].join('.'))).toBeNull();
    expect(openSession(code, `${iv}.${body}`)).toBeNull();
  });

  it('are kept under an id that is neither the code nor a link token’s id for it', () => {
    const code = newHandoffCode();
    expect(handoffId(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(handoffId(code)).not.toBe(linkTokenId(code));
    expect(isWellFormedCode(code)).toBe(true);
    expect(isWellFormedCode('x')).toBe(false);
  });
});
