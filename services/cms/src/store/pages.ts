import { randomUUID } from 'node:crypto';
import { type DocumentStore, DuplicateKeyError } from '@omni/platform';
import { type PageDoc, SEED_PAGES } from '../domain/asset';

export class PagesRepository {
  private readonly pages;

  constructor(store: DocumentStore) {
    this.pages = store.collection<PageDoc>('pages', { indexes: [{ fields: { slug: 1 }, unique: true }] });
  }

  /** Idempotent: the unique slug index makes a second start (or a second replica) a no-op. */
  async seed(): Promise<void> {
    for (const page of SEED_PAGES) {
      if (await this.pages.findOne({ slug: page.slug })) continue;
      try {
        await this.pages.insertOne({ _id: randomUUID(), ...page, createdAt: new Date().toISOString() });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
  }

  bySlug(slug: string) {
    return this.pages.findOne({ slug });
  }

  byId(id: string) {
    return this.pages.findById(id);
  }

  all() {
    return this.pages.find({}, { sort: { slug: 1 } });
  }
}
