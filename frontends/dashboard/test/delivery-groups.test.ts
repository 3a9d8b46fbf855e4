import type { DeliveryJobJson } from '@omni/proto/api';
import { canTakeDown, groupJobs, lastChange } from '../src/lib/delivery-groups';

const job = (target: string, status: string, extra: Partial<DeliveryJobJson> = {}): DeliveryJobJson => ({
  target,
  storeName: target,
  status,
  jobKind: 'ingest',
  reason: null,
  attempts: 0,
  nextAttemptAt: null,
  deadLettered: false,
  steps: [],
  hasErn: false,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

it('groups stores by state, done first, keeping the release order inside a group', () => {
  const groups = groupJobs([
    job('spotify', 'queued'),
    job('tidal', 'live'),
    job('deezer', 'rejected', { reason: 'Artwork has a URL' }),
    job('apple_music', 'live'),
    job('amazon_music', 'failed'),
  ]);
  expect(groups.map((g) => [g.label, g.jobs.map((j) => j.target)])).toEqual([
    ['Live', ['tidal', 'apple_music']],
    ['Queued', ['spotify']],
    ['Retrying', ['amazon_music']],
    ['Rejected', ['deezer']],
  ]);
});

it('dates a store by its last step, and offers takedown only where the release still is', () => {
  const steps = [
    { status: 'queued', at: '2026-01-01T00:00:00.000Z' },
    { status: 'sent', at: '2026-01-02T00:00:00.000Z' },
  ];
  expect(lastChange(job('spotify', 'sent', { steps }))).toBe('2026-01-02T00:00:00.000Z');
  expect(lastChange(job('spotify', 'queued'))).toBe('2026-01-01T00:00:00.000Z');
  expect(canTakeDown(job('spotify', 'live'))).toBe(true);
  expect(canTakeDown(job('spotify', 'taken_down'))).toBe(false);
  expect(canTakeDown(job('spotify', 'queued', { jobKind: 'takedown' }))).toBe(false);
});
