// Profiles: the display name every account has. The profile is written in the same transaction as the
// `user.registered` event, so an account is announced exactly when its profile appears; `ensure` repairs
// an account created by the provider just before a crash (at sign-in or /api/me).
import type { Doc, DocumentStore, Outbox } from '@omni/platform';
import type { IdentityUser } from '../providers/identity/port';

export interface ProfileDoc extends Doc {
  /** _id is the user id. */
  displayName: string;
  createdAt: string;
  updatedAt: string;
}

const COLLECTION = 'profiles';

export class Profiles {
  private readonly profiles;

  constructor(
    private readonly store: DocumentStore,
    private readonly outbox: Outbox,
  ) {
    this.profiles = store.collection<ProfileDoc>(COLLECTION);
  }

  async ensure(user: IdentityUser, via: 'signup' | 'admin', displayName = ''): Promise<ProfileDoc> {
    const existing = await this.profiles.findById(user.id);
    if (existing) return existing;
    const now = new Date().toISOString();
    const created = await this.store
      .transaction(async (scope) => {
        const doc = await scope
          .collection<ProfileDoc>(COLLECTION)
          .insertOne({ _id: user.id, displayName, createdAt: now, updatedAt: now });
        await this.outbox.add(scope, 'user.registered', user.id, {
          userId: user.id,
          email: user.email,
          roles: user.roles,
          registeredAt: user.createdAt || now,
          via,
        });
        return doc;
      })
      // Two first requests racing: the loser finds the winner's profile.
      .catch(async (err: unknown) => {
        const winner = await this.profiles.findById(user.id);
        if (winner) return winner;
        throw err;
      });
    void this.outbox.flush().catch(() => undefined);
    return created;
  }

  async setDisplayName(userId: string, displayName: string): Promise<ProfileDoc | null> {
    return this.profiles.findOneAndUpdate(
      { _id: userId },
      { $set: { displayName, updatedAt: new Date().toISOString() } },
    );
  }
}
