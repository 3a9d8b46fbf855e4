// The release's roll-up from its job counts (domain/release-status.ts): the rule the event, the page and
// catalog share, and the counting the pipeline keeps per release.
import type { JobKind, StoreStatus } from '@omni/proto/api';
import {
  anyHeld,
  countJobs,
  countsDelta,
  reviewForRollUp,
  rollUpReleaseStatus,
} from '../src/domain/release-status';

const job = (status: StoreStatus, jobKind: JobKind = 'ingest', held = false) => ({ status, jobKind, held });
const roll = (...jobs: ReturnType<typeof job>[]) =>
  rollUpReleaseStatus({ review: 'approved', counts: countJobs(jobs) });

test('the review decides first: none yet, in review, rejected', () => {
  const counts = countJobs([job('live')]);
  expect(rollUpReleaseStatus({ review: null, counts })).toBe('draft');
  expect(rollUpReleaseStatus({ review: 'in_review', counts })).toBe('in_review');
  expect(rollUpReleaseStatus({ review: 'rejected', counts })).toBe('rejected');
});

test('approved: live, taken down, rejected by every store, or still delivering', () => {
  expect(roll(job('live'), job('live'))).toBe('live');
  expect(roll(job('live'), job('taken_down', 'takedown'))).toBe('live');
  expect(roll(job('taken_down', 'takedown'), job('purged', 'purge'))).toBe('taken_down');
  expect(roll(job('rejected'), job('purged', 'purge'))).toBe('rejected');
  expect(roll(job('rejected'), job('live'))).toBe('delivering');
  expect(roll(job('live'), job('sent'))).toBe('delivering');
  // A takedown on its way is not the release's being live.
  expect(roll(job('live', 'takedown'))).toBe('delivering');
  expect(roll()).toBe('delivering');
});

test('zero counts (left by a change) count as nothing', () => {
  expect(
    rollUpReleaseStatus({ review: 'approved', counts: { 'live:ingest:free': 2, 'sent:ingest:free': 0 } }),
  ).toBe('live');
  expect(anyHeld({ 'queued:ingest:held': 0, 'live:ingest:free': 1 })).toBe(false);
  expect(anyHeld(countJobs([job('queued', 'ingest', true)]))).toBe(true);
});

test('a change is the difference of the shapes before and after, unchanged shapes left out', () => {
  expect(countsDelta([job('sent')], [job('acknowledged')])).toEqual({
    'sent:ingest:free': -1,
    'acknowledged:ingest:free': 1,
  });
  expect(countsDelta([job('sent')], [job('sent')])).toEqual({});
  expect(countsDelta([], [job('queued', 'ingest', true), job('queued', 'ingest', true)])).toEqual({
    'queued:ingest:held': 2,
  });
});

test('no review document: approved once its jobs are released (it predates the review), draft otherwise', () => {
  expect(reviewForRollUp(undefined, countJobs([job('live'), job('sent')]))).toBe('approved');
  expect(reviewForRollUp(undefined, countJobs([job('queued', 'ingest', true), job('live')]))).toBeNull();
  expect(reviewForRollUp(undefined, countJobs([]))).toBeNull();
  // A review document decides whatever the jobs say.
  expect(reviewForRollUp('in_review', countJobs([job('live')]))).toBe('in_review');
  expect(reviewForRollUp('rejected', countJobs([]))).toBe('rejected');
});
