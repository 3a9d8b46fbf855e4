// Profiles: the display name every account has. The profile is written in the same transaction as the
// `user.registered` event, so an account is announced exactly when its profile appears; `ensure` repairs
// an account created by the provider just before a crash (at sign-in or /api/me).
import type { Doc, DocumentStore, Outbox } from '@omni/platform';
import type { IdentityUser } from '../providers/identity/port';

export interface ProfileDoc extends Doc {
  /** _id is the user id. */
  displayName: string;
  /**
   * The account page's mail settings; absent (profiles made before they existed) means on. Security
   * mails (verification, reset, email change) ignore them.
   */
  mail?: Partial<MailSettings>;
  createdAt: string;
  updatedAt: string;
}

export interface MailSettings {
  /** Approved, rejected, refused by a store, live, taken down. */
  releases: boolean;
  /** A failed payment. */
  billing: boolean;
}

/** What a profile's settings are, with the defaults (on) for what it never set. */
export const mailSettingsOf = (profile: Pick<ProfileDoc, 'mail'> | null | undefined): MailSettings => ({
  releases: profile?.mail?.releases ?? true,
  billing: profile?.mail?.billing ?? true,
});

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

  async setMailSettings(userId: string, settings: Partial<MailSettings>): Promise<ProfileDoc | null> {
    const set: Record<string, unknown> = { updatedAt: new Date().toISOString() };
    if (settings.releases !== undefined) set['mail.releases'] = settings.releases;
    if (settings.billing !== undefined) set['mail.billing'] = settings.billing;
    return this.profiles.findOneAndUpdate({ _id: userId }, { $set: set });
  }

  get(userId: string): Promise<ProfileDoc | null> {
    return this.profiles.findById(userId);
  }

  async remove(userId: string): Promise<void> {
    await this.profiles.deleteOne({ _id: userId });
  }
}
