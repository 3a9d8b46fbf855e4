// The documents port on MongoDB (production).
import type { DocumentStore } from '../../ports/documents';
import { MongoDocumentStore, type MongoDocumentStoreOptions } from './store';

export type { MongoDocumentStoreOptions } from './store';

export function createMongoDocumentStore(options: MongoDocumentStoreOptions): DocumentStore {
  return new MongoDocumentStore(options);
}
