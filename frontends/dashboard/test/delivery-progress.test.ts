import { deliveryStage, MAX_POLLS, nextPollDelay } from '../src/lib/delivery-progress';
import type { Release } from '../src/lib/releases-api';

const job = (target: string, status: string) => ({ target, status, jobKind: 'ingest', updatedAt: '' });

function release(stores: string[], jobs: ReturnType<typeof job>[], unavailable = false): Release {
  return {
    id: 'r1',
    title: 'T',
    releaseType: 'single',
    genre: '',
    label: null,
    releaseDate: null,
    status: 'draft',
    upc: '',
    artworkUrl: '',
    artist: { id: 'a1', name: 'A' },
    tracks: [],
    metadata: { credits: {}, technical: {}, legal: {}, content: {} },
    delivery: { total: jobs.length, byStatus: {}, jobs, unavailable },
    stores,
    createdAt: '',
  };
}

describe('deliveryStage', () => {
  it('a release with no store chosen (a console song) is not queued', () => {
    expect(deliveryStage(release([], []))).toBe('not-queued');
  });
  it('is preparing until every chosen store has its job', () => {
    expect(deliveryStage(release(['spotify', 'tidal'], [job('spotify', 'queued')]))).toBe('preparing');
  });
  it('queued jobs wait for review: settled, like a store’s final answer', () => {
    const jobs = [job('spotify', 'queued'), job('tidal', 'live'), job('deezer', 'rejected')];
    expect(deliveryStage(release(['spotify', 'tidal', 'deezer'], jobs))).toBe('settled');
  });
  it('a job on its way to a store keeps it moving', () => {
    const jobs = [job('spotify', 'queued'), job('tidal', 'packaging')];
    expect(deliveryStage(release(['spotify', 'tidal'], jobs))).toBe('moving');
  });
  it('says when delivery did not answer', () => {
    expect(deliveryStage(release(['spotify'], [], true))).toBe('unavailable');
  });
});

describe('nextPollDelay', () => {
  it('never asks again for a settled or unqueued release', () => {
    expect(nextPollDelay('settled', 1)).toBe(false);
    expect(nextPollDelay('not-queued', 1)).toBe(false);
  });
  it('backs off exponentially up to 30 s, then stops after MAX_POLLS answers', () => {
    const delays: (number | false)[] = [];
    for (let polls = 1; polls <= MAX_POLLS; polls++) delays.push(nextPollDelay('preparing', polls));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, false]);
    expect(nextPollDelay('moving', MAX_POLLS + 3)).toBe(false);
  });
});
