// The embedded document store: the documents port on local disk, for `npm start` and tests.
import type { DocumentStore } from '../../ports/documents';
import { EmbeddedDocumentStore, type EmbeddedDocumentStoreOptions } from './store';

export type { EmbeddedDocumentStoreOptions } from './store';

export function createEmbeddedDocumentStore(options: EmbeddedDocumentStoreOptions): DocumentStore {
  return new EmbeddedDocumentStore(options);
}
