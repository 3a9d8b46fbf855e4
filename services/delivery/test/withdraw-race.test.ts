// A release its owner deletes while delivery is writing its submission (release.created or
// release.resubmitted on its way) never comes back to the admin's review queue, in whatever order the two
// run. On FerretDB (cluster mode) transactions are journaled: all or nothing, but not isolated, so the
// withdrawal and the submission's transaction interleave write by write; the cluster journey found the
// deleted release in the queue. Here that store is modelled in process: every read and write goes straight
// to the store, the writes of a transaction that throws are undone from their before-images (as journal.ts
// does), and the other transaction is run whole before each step of the first, for every step.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Collection,
  createLogger,
  type Doc,
  type DocumentStore,
  type EventBus,
  type Filter,
  Outbox,
  type TransactionScope,
} from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { catalog } from '@omni/proto';
import { reviewHandlers } from '../src/grpc/review-handlers';
import { JOBS, RELEASE_COUNTS } from '../src/store/collections';
import { JobsRepository } from '../src/store/jobs';
import { ReviewsRepository } from '../src/store/reviews';
import { VERSIONS, VersionsRepository } from '../src/store/versions';
import { approve, type ReviewDeps, reject, submitForReview } from '../src/use-cases/review-release';
import { withdrawRelease } from '../src/use-cases/withdraw-release';

const OWNER = 'owner-1';
/** A gRPC call's context: the queue's handler reads none of it. */
const NO_CALL = { metadata: {} };
const FIND_ONE = ['updateOne', 'findOneAndUpdate', 'deleteOne'];
const FIND_ALL = ['updateMany', 'deleteMany'];
const INSERTS = ['insertOne', 'insertMany'];

interface Undo {
  collection: string;
  id: string;
  before: Doc | null;
}

/**
 * A transaction on a journaled store: each operation reaches the store at once (others see it), after
 * `step` (the test's chance to run something else in between). Returns the scope and its rollback.
 */
function journaled(store: DocumentStore, step: () => Promise<void>) {
  const undo: Undo[] = [];
  const note = (collection: string, id: string, before: Doc | null) => {
    if (!undo.some((u) => u.collection === collection && u.id === id)) undo.push({ collection, id, before });
  };
  const scope: TransactionScope = {
    collection<T extends Doc>(name: string): Collection<T> {
      const inner = store.collection<T>(name);
      return new Proxy(inner, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (typeof value !== 'function') return value;
          const method = String(key);
          return async (...args: unknown[]) => {
            await step();
            const filter = args[0] as Filter;
            if (FIND_ONE.includes(method)) {
              const found = await target.findOne(filter);
              if (found) note(name, found._id, found);
            }
            if (FIND_ALL.includes(method))
              for (const found of await target.find(filter)) note(name, found._id, found);
            const result = await value.apply(target, args);
            if (INSERTS.includes(method))
              for (const doc of [result].flat() as Doc[]) note(name, doc._id, null);
            const upserted = (result as { upsertedId?: string } | null)?.upsertedId;
            if (method === 'updateOne' && upserted) note(name, upserted, null);
            return result;
          };
        },
      });
    },
  };
  const rollback = async () => {
    for (const u of [...undo].reverse()) {
      const docs = store.collection(u.collection);
      await docs.deleteOne({ _id: u.id });
      if (u.before) await docs.insertOne(u.before);
    }
  };
  return { scope, rollback };
}

/** Runs `work` as a journaled transaction: writes seen at once, undone if it throws. */
async function transaction<R>(
  store: DocumentStore,
  work: (scope: TransactionScope) => Promise<R>,
  step: () => Promise<void> = async () => undefined,
): Promise<R> {
  const tx = journaled(store, step);
  try {
    return await work(tx.scope);
  } catch (err) {
    await tx.rollback();
    throw err;
  }
}

describe('a release withdrawn while its submission is written', () => {
  let dir: string;
  let store: DocumentStore;
  let deps: ReviewDeps;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'omni-withdraw-race-'));
    store = createSqliteDocumentStore({ dataDir: dir, fsync: false });
    await store.ready();
    // The events are only written to the outbox here; nothing publishes them.
    const outbox = new Outbox(store, {} as EventBus, 'delivery', createLogger('test'));
    deps = {
      store,
      jobs: new JobsRepository(store, outbox),
      reviews: new ReviewsRepository(store),
      versions: new VersionsRepository(store),
      relay: () => undefined,
    };
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const submission = (releaseId: string, eventId: string, resubmission: boolean) => ({
    releaseId,
    ownerId: OWNER,
    stores: ['spotify', 'deezer'],
    title: 'Night Drive',
    artistName: 'Ada',
    releaseType: 'single',
    upc: '012345678905',
    artworkUrl: '',
    findings: [],
    release: catalog.Release.fromPartial({ id: releaseId, title: 'Night Drive' }),
    cover: null,
    eventId,
    resubmission,
    at: new Date().toISOString(),
  });

  /** The submission as the consumer runs it: a throw is retried (the event is redelivered). */
  const submit = async (releaseId: string, resubmission: boolean, step?: () => Promise<void>) => {
    const s = submission(releaseId, resubmission ? 'evt-2' : 'evt-1', resubmission);
    try {
      await transaction(store, (scope) => submitForReview(scope, deps, s), step);
    } catch {
      await transaction(store, (scope) => submitForReview(scope, deps, s));
    }
  };
  /** The withdrawal as delivery's gRPC handler runs it, its transaction journaled. */
  const withdraw = (releaseId: string, step?: () => Promise<void>) =>
    withdrawRelease(
      { ...deps, store: { transaction: (work) => transaction(store, work, step) } as DocumentStore },
      releaseId,
      OWNER,
    );

  /** Runs `outer`, with `inner` run whole just before its step number `at`; false when it had no such step. */
  async function interleaved(
    outer: (step: () => Promise<void>) => Promise<unknown>,
    inner: () => Promise<unknown>,
    at: number,
  ): Promise<boolean> {
    let steps = 0;
    let ran = false;
    await outer(async () => {
      if (steps++ === at) {
        ran = true;
        await inner();
      }
    });
    return ran;
  }

  const queue = async () =>
    (await reviewHandlers(deps).listReviewQueue({ status: '', cursor: '', limit: 0 }, NO_CALL)).reviews.map(
      (r) => r.releaseId,
    );

  /** What delivery still holds of the release: nothing, once it is withdrawn. */
  async function leftOf(releaseId: string) {
    return {
      withdrawn: (await deps.reviews.withdrawnAmong([releaseId])).has(releaseId),
      review: await deps.reviews.get(releaseId),
      jobs: await store.collection(JOBS).count({ releaseId }),
      counts: await store.collection(RELEASE_COUNTS).findById(releaseId),
      versions: await store.collection(VERSIONS).count({ releaseId }),
      inQueue: (await queue()).includes(releaseId),
    };
  }
  const nothingLeft = { withdrawn: true, review: null, jobs: 0, counts: null, versions: 0, inQueue: false };

  describe.each([
    ['a first submission (release.created)', false],
    ['a resubmission (release.resubmitted) while in review', true],
  ])('%s', (_name, resubmission) => {
    const prepare = async (releaseId: string) => {
      if (resubmission) await submit(releaseId, false);
    };

    it('leaves nothing of the release when the withdrawal runs before any step of the submission', async () => {
      let interleavings = 0;
      for (let at = 0; ; at++) {
        const releaseId = `rel-w-in-s-${at}`;
        await prepare(releaseId);
        const ran = await interleaved(
          (step) => submit(releaseId, resubmission, step),
          () => withdraw(releaseId),
          at,
        );
        // Past its last step: the other one never ran.
        if (!ran) break;
        expect({ at, ...(await leftOf(releaseId)) }).toEqual({ at, ...nothingLeft });
        interleavings++;
      }
      expect(interleavings).toBeGreaterThan(8);
    });

    it('leaves nothing of the release when the submission runs before any step of the withdrawal', async () => {
      let interleavings = 0;
      for (let at = 0; ; at++) {
        const releaseId = `rel-s-in-w-${at}`;
        await prepare(releaseId);
        const ran = await interleaved(
          (step) => withdraw(releaseId, step),
          () => submit(releaseId, resubmission),
          at,
        );
        // Past its last step: the other one never ran.
        if (!ran) break;
        expect({ at, ...(await leftOf(releaseId)) }).toEqual({ at, ...nothingLeft });
        interleavings++;
      }
      expect(interleavings).toBeGreaterThan(3);
    });
  });

  it('a late submission after the withdrawal changes nothing; one before it is taken with it', async () => {
    await withdraw('rel-late');
    await submit('rel-late', false);
    expect(await leftOf('rel-late')).toEqual(nothingLeft);
    await submit('rel-early', false);
    expect(await queue()).toContain('rel-early');
    await withdraw('rel-early');
    expect(await leftOf('rel-early')).toEqual(nothingLeft);
  });

  it('a review its withdrawal missed (snapshot isolation: neither saw the other) is neither shown nor decided', async () => {
    for (const id of ['rel-a', 'rel-b', 'rel-c']) await submit(id, false);
    // What a replica set could leave: the withdrawal committed its mark, having seen no review yet.
    await transaction(store, (scope) =>
      deps.reviews.markWithdrawn(scope, 'rel-b', OWNER, new Date().toISOString()),
    );
    expect(await queue()).toEqual(['rel-a', 'rel-c']);
    // The page that ends on the hidden review still leads on to the next one.
    const first = await reviewHandlers(deps).listReviewQueue({ status: '', cursor: '', limit: 2 }, NO_CALL);
    expect(first.reviews.map((r) => r.releaseId)).toEqual(['rel-a']);
    const next = await reviewHandlers(deps).listReviewQueue(
      { status: '', cursor: first.nextCursor, limit: 2 },
      NO_CALL,
    );
    expect(next.reviews.map((r) => r.releaseId)).toEqual(['rel-c']);
    await expect(approve(deps, 'rel-b', 'admin-1')).rejects.toThrow('No such release.');
    await expect(reject(deps, 'rel-b', 'admin-1', 'The cover is blurry.')).rejects.toThrow(
      'No such release.',
    );
    expect((await approve(deps, 'rel-a', 'admin-1')).status).toBe('approved');
  });
});
