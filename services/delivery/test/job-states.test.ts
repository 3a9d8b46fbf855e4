// The table of a job's life: the moves the pipeline makes are allowed, the ones it must never make are
// refused by the jobs repository, and whether a release still moves is read from the jobs as delivery has them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type EventBus, Outbox } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { IllegalJobMove, JOB_STATES, mayMove, statusesWhere, stillMoving } from '../src/domain/job-states';
import { JobsRepository } from '../src/store/jobs';

describe('the moves of a job', () => {
  it.each([
    ['queued', 'packaging'],
    ['packaging', 'sent'],
    ['sent', 'acknowledged'],
    ['acknowledged', 'live'],
    ['sent', 'rejected'],
    ['packaging', 'failed'],
    ['failed', 'packaging'],
    ['live', 'queued'],
    ['taken_down', 'queued'],
    ['queued', 'taken_down'],
  ] as const)('%s → %s is allowed', (from, to) => {
    expect(mayMove(from, to)).toBe(true);
  });

  it.each([
    ['queued', 'live'],
    ['packaging', 'acknowledged'],
    ['live', 'sent'],
    ['purged', 'queued'],
    ['rejected', 'live'],
    ['taken_down', 'live'],
  ] as const)('%s → %s is refused', (from, to) => {
    expect(mayMove(from, to)).toBe(false);
    expect(new IllegalJobMove(from, to).message).toBe(`a delivery job cannot move from ${from} to ${to}`);
  });

  it('gives every list of statuses the pipeline uses from one table', () => {
    expect(statusesWhere('claimable').sort()).toEqual(['acknowledged', 'failed', 'packaging', 'queued']);
    expect(statusesWhere('inFlight').sort()).toEqual(['packaging', 'sent']);
    expect(statusesWhere('settled').sort()).toEqual(['acknowledged', 'failed', 'live', 'rejected']);
    expect(statusesWhere('gone').sort()).toEqual(['purged', 'taken_down']);
    // Every status a move can reach is a status of the table.
    for (const state of Object.values(JOB_STATES))
      for (const to of state.next) expect(Object.keys(JOB_STATES)).toContain(to);
  });
});

describe('whether a release still moves', () => {
  const now = '2026-11-28T12:00:00.000Z';
  const job = (over: Partial<Parameters<typeof stillMoving>[1][number]>) => ({
    status: 'live' as const,
    jobKind: 'ingest',
    held: false,
    deadLettered: false,
    ...over,
  });

  it('waits for an admin while in review, and for nothing once every store is live', () => {
    expect(stillMoving('in_review', [job({ status: 'queued', held: true })], now)).toBe(true);
    expect(stillMoving('approved', [job({}), job({})], now)).toBe(false);
  });

  it('moves while a job is on its way or retried, not while it waits for an admin’s replay', () => {
    expect(stillMoving('approved', [job({ status: 'sent' })], now)).toBe(true);
    expect(stillMoving('approved', [job({ status: 'failed' })], now)).toBe(true);
    expect(stillMoving('approved', [job({ status: 'failed', deadLettered: true })], now)).toBe(false);
  });

  it('moves for a queued job only once the review let it go', () => {
    expect(stillMoving('rejected', [job({ status: 'queued', held: true })], now)).toBe(false);
    expect(stillMoving('approved', [job({ status: 'queued' })], now)).toBe(true);
  });

  it('moves for an acknowledged release once its date has come, not before', () => {
    const future = '2027-01-01T00:00:00.000Z';
    expect(stillMoving('approved', [job({ status: 'acknowledged', liveAt: future })], now)).toBe(false);
    expect(stillMoving('approved', [job({ status: 'acknowledged', liveAt: now })], now)).toBe(true);
  });
});

describe('the jobs repository', () => {
  it('refuses a move the table does not allow, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omni-job-states-'));
    const store = createSqliteDocumentStore({ dataDir: dir, fsync: false });
    await store.ready();
    try {
      // The events are only written to the outbox here; nothing publishes them.
      const jobs = new JobsRepository(
        store,
        new Outbox(store, {} as EventBus, 'delivery', createLogger('test')),
      );
      await store.transaction((scope) =>
        jobs.queueHeld(scope, { releaseId: 'rel-1', ownerId: 'u1', stores: ['spotify'], eventId: 'e1' }),
      );
      const job = (await jobs.ofStore('rel-1', 'spotify'))!;
      await expect(jobs.move(job, { from: 'queued', to: 'live' }, new Date().toISOString())).rejects.toThrow(
        IllegalJobMove,
      );
      expect((await jobs.get(job._id))?.status).toBe('queued');
      const moved = await jobs.move(job, { from: 'queued', to: 'packaging' }, new Date().toISOString());
      expect(moved?.status).toBe('packaging');
      expect(moved?.steps.map((s) => s.status)).toEqual(['queued', 'packaging']);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
