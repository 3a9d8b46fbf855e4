// A scan cut off by a crash can never finish: when finder starts again it marks every job still 'running'
// as failed with a sentence saying what to do, so the account is free to scan again.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScanAnswer, startFinderPlatform, subscribeToFinder } from './finder.fixtures';

it('marks a scan left running by a crash failed at start, and the account can scan again', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-finder-restart-'));
  const userId = randomUUID();
  try {
    const first = await startFinderPlatform({ dataDir });
    await subscribeToFinder(first, userId);
    // What a kill -9 mid-scan leaves behind: a running job holding the account's one running slot.
    await (await first.ports.documents('finder')).collection('omni_finder_jobs').insertOne({
      _id: 'crashed-job',
      user_id: userId,
      created_at: new Date().toISOString(),
      status: 'running',
      scan_scope: 'global',
      isrcs: [],
      progress: { done: 500, total: 10_000 },
      result: null,
      error: '',
      completed_at: '',
      running_for: userId,
    });
    await first.close({ keepData: true });

    const second = await startFinderPlatform({ dataDir });
    try {
      const token = await second.token(userId);
      const latest = (await (await second.api('/api/finder/scans/latest', { token })).json()) as {
        job: { id: string; status: string; error: string };
      };
      expect(latest.job).toMatchObject({
        id: 'crashed-job',
        status: 'failed',
        error: 'The scan was interrupted by a restart; run the scan again.',
      });
      const again = (await (
        await second.api('/api/finder/scans', { method: 'POST', token, json: { scan_scope: 'global' } })
      ).json()) as ScanAnswer;
      expect(again.data.job_id).not.toBe('crashed-job');
      expect(again.data.job.status).toBe('completed');
    } finally {
      await second.close({ keepData: true });
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
