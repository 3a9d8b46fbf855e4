// The embedded issuer's accounts in identity's document store. The email index is unique, so two sign-ups
// racing for one address end with one account and one 'email_taken'.
import { randomUUID } from 'node:crypto';
import type { Role } from '@omni/platform';
import { type Doc, type DocumentStore, DuplicateKeyError } from '@omni/platform';
import { IdentityError, type IdentityUser } from '../port';

export interface UserDoc extends Doc {
  email: string;
  passwordHash: string;
  emailVerified: boolean;
  roles: Role[];
  name?: string;
  createdAt: string;
  passwordChangedAt: string;
}

export const USERS = 'users';

export function usersCollection(store: DocumentStore) {
  return store.collection<UserDoc>(USERS, { indexes: [{ fields: { email: 1 }, unique: true }] });
}

export const toIdentityUser = (doc: UserDoc): IdentityUser => ({
  id: doc._id,
  email: doc.email,
  emailVerified: doc.emailVerified,
  roles: doc.roles,
  name: doc.name,
  createdAt: doc.createdAt,
});

/** `admin` always carries `artist` (as the realm's composite role does in Keycloak). */
export const withImpliedRoles = (roles: Role[]): Role[] =>
  roles.includes('admin') ? ['artist', 'admin'] : roles.includes('artist') ? ['artist'] : ['artist'];

export async function insertUser(
  store: DocumentStore,
  input: { email: string; passwordHash: string; emailVerified: boolean; roles: Role[]; name?: string },
): Promise<UserDoc> {
  const now = new Date().toISOString();
  try {
    return await usersCollection(store).insertOne({
      _id: randomUUID(),
      ...input,
      roles: withImpliedRoles(input.roles),
      createdAt: now,
      passwordChangedAt: now,
    });
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw new IdentityError('email_taken');
    throw err;
  }
}
