// What the MongoDB adapter does without a server (the contract suite covers the rest when MONGODB_URI is
// set): it reports an unreachable server clearly, keeps credentials out of messages, and maps E11000.
import { createMongoDocumentStore } from '../../src/adapters/documents-mongo';
import { redactUri, translateError } from '../../src/adapters/documents-mongo/errors';
import { DuplicateKeyError } from '../../src/ports/documents';

describe('MongoDB document adapter without a server', () => {
  it('fails readiness with a clear, credential-free message and reports unhealthy', async () => {
    // Port 1 on loopback: nothing listens there, so server selection fails fast.
    const store = createMongoDocumentStore({
      uri: 'mongodb://omni:s3cret@127.0.0.1:1/?directConnection=true',
      dbName: 'omni_test',
      serverSelectionTimeoutMS: 300,
    });
    expect(store.kind).toBe('mongodb');
    const err = (await store.ready().catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/MongoDB at mongodb:\/\/\*\*\*@127\.0\.0\.1:1.* is unreachable/);
    expect(err.message).not.toContain('s3cret');
    expect(await store.healthy()).toBe(false);
    await expect(store.collection('items').insertOne({})).rejects.toThrow();
    await store.close();
  });

  it('maps E11000 to DuplicateKeyError naming the index', () => {
    const server = Object.assign(
      new Error('E11000 duplicate key error collection: db.users index: email_1 dup key: { email: "a" }'),
      {
        code: 11000,
      },
    );
    const mapped = translateError('users', server);
    expect(mapped).toBeInstanceOf(DuplicateKeyError);
    expect((mapped as DuplicateKeyError).index).toBe('email_1');
    const bulk = Object.assign(new Error('bulk'), {
      writeErrors: [{ code: 11000, index: 2 }],
      errorResponse: { keyPattern: { owner: 1, slug: 1 } },
    });
    expect((translateError('albums', bulk) as DuplicateKeyError).index).toBe('owner_slug');
    const other = new Error('network');
    expect(translateError('users', other)).toBe(other);
  });

  it("maps FerretDB's SQLite unique violation on an update to DuplicateKeyError naming the port's index", () => {
    const ferret = Object.assign(
      new Error(
        "[msg_update.go:133 handler.(*Handler).updateDocument] constraint failed: UNIQUE constraint failed: index 'omni_finder_jobs_e60c2c52_one_running_scan_per_account' (2067)",
      ),
      { code: 1, codeName: 'InternalError' },
    );
    const declared = [
      { fields: { running_for: 1 }, unique: true, name: 'running_scan_per_account' },
      { fields: { running_for: 1 }, unique: true, name: 'one_running_scan_per_account' },
    ] as const;
    const mapped = translateError('omni_finder_jobs', ferret, [...declared]);
    expect(mapped).toBeInstanceOf(DuplicateKeyError);
    expect((mapped as DuplicateKeyError).index).toBe('one_running_scan_per_account');
    expect((translateError('x', ferret) as DuplicateKeyError).index).toBe('unknown');
  });

  it('redacts credentials from connection strings', () => {
    expect(redactUri('mongodb://user:pw@h1:27017,h2:27017/db?replicaSet=rs0')).toBe(
      'mongodb://***@h1:27017,h2:27017/db?replicaSet=rs0',
    );
    expect(redactUri('mongodb+srv://cluster.example/db')).toBe('mongodb+srv://cluster.example/db');
  });
});
