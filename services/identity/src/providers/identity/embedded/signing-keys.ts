// The embedded issuer's RS256 signing key, created on first start and kept in identity's own store so
// tokens stay valid across restarts. Keycloak holds its own keys in production; this exists only so one
// machine has a real issuer with the same JWKS layout.
import { randomUUID } from 'node:crypto';
import { type Doc, type DocumentStore, DuplicateKeyError } from '@omni/platform';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

export interface SigningKeyDoc extends Doc {
  publicJwk: JWK;
  privateJwk: JWK;
  createdAt: string;
  active: boolean;
}

export const SIGNING_KEYS = 'signing_keys';

export async function activeSigningKey(store: DocumentStore): Promise<SigningKeyDoc> {
  const keys = store.collection<SigningKeyDoc>(SIGNING_KEYS, { indexes: [{ fields: { active: 1 } }] });
  const existing = await keys.findOne({ active: true }, { sort: { createdAt: -1 } });
  if (existing) return existing;
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const doc = {
    _id: kid,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256' },
    createdAt: new Date().toISOString(),
    active: true,
  };
  try {
    return await keys.insertOne(doc);
  } catch (err) {
    if (err instanceof DuplicateKeyError) return (await keys.findOne({ active: true }))!;
    throw err;
  }
}

export async function publicJwks(store: DocumentStore): Promise<{ keys: JWK[] }> {
  const keys = await store.collection<SigningKeyDoc>(SIGNING_KEYS).find({});
  return { keys: keys.map((k) => k.publicJwk) };
}

export const privateKeyOf = (doc: SigningKeyDoc) => importJWK(doc.privateJwk, 'RS256');
