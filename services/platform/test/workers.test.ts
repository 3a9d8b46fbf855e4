// The platform's worker threads: started without the parent's loader flags, restarted when they die, and a
// death never poisons the requests after it (issue 21: one validator crash failed every delivery for ever).
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { superviseWorker, WorkerUnavailableError } from '../src/runtime/workers';

const ROOT = join(__dirname, '../../..');
const ECHO = join(__dirname, 'fixtures/echo-worker.mjs');
type Echo = { echoed: string; execArgv: string[] };

function recordingLogger() {
  const errors: { fields: Record<string, unknown>; message: string }[] = [];
  return {
    errors,
    logger: {
      error: (fields: Record<string, unknown>, message: string) => errors.push({ fields, message }),
      info: () => undefined,
    } as never,
  };
}

describe('supervised workers', () => {
  it('answers requests and reports a handled error as a refusal of that request only', async () => {
    const { logger } = recordingLogger();
    const w = superviseWorker<{ text: string }, Echo>({ name: 'echo', file: ECHO, logger });
    try {
      await expect(w.request({ text: 'a' })).resolves.toMatchObject({ echoed: 'a', execArgv: [] });
      await expect(w.request({ text: 'throw' })).rejects.toThrow(
        'echo could not handle the request: cannot echo that',
      );
      await expect(w.request({ text: 'b' })).resolves.toMatchObject({ echoed: 'b' });
    } finally {
      await w.close();
    }
  });

  it('logs a dead worker at error, refuses what it held as unavailable, and restarts it', async () => {
    const { logger, errors } = recordingLogger();
    const w = superviseWorker<{ text: string }, Echo>({
      name: 'echo',
      file: ECHO,
      logger,
      restartBaseMs: 10,
    });
    try {
      const lost = w.request({ text: 'die' });
      await expect(lost).rejects.toBeInstanceOf(WorkerUnavailableError);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toBe('echo worker stopped; restarting');
      expect(errors[0]?.fields.exitCode).toBe(3);
      // The next request waits for the new worker instead of failing with the old one's death.
      await expect(w.request({ text: 'after' })).resolves.toMatchObject({ echoed: 'after' });
    } finally {
      await w.close();
    }
  });

  it('keeps restarting with back-off while the worker cannot start, and serves once it can', async () => {
    const flag = join(tmpdir(), `omni-worker-flag-${process.pid}-${Date.now()}`);
    writeFileSync(flag, '');
    const { logger, errors } = recordingLogger();
    const w = superviseWorker<{ text: string }, Echo>({
      name: 'echo',
      file: ECHO,
      workerData: { dieAtStartWhile: flag },
      logger,
      restartBaseMs: 5,
      restartCapMs: 40,
    });
    try {
      while (errors.length < 3) await new Promise((r) => setTimeout(r, 5));
      const delays = errors.map((e) => e.fields.restartInMs as number);
      expect(delays.slice(0, 3)).toEqual([5, 10, 20]);
      rmSync(flag);
      await expect(w.request({ text: 'healed' })).resolves.toMatchObject({ echoed: 'healed' });
    } finally {
      rmSync(flag, { force: true });
      await w.close();
    }
  });

  it('starts workers without the parent loader flags, under the flags a TypeScript entry runs with', () => {
    // The defect of issue 21 §1.1 as it was met: a parent under `--import tsx --import register.ts`.
    const script = `
      const { superviseWorker } = require('./services/platform/src/runtime/workers.ts');
      const w = superviseWorker({ name: 'echo', file: ${JSON.stringify(ECHO)}, logger: console });
      w.request({ text: 'hi' }).then((r) => { console.log(JSON.stringify(r)); return w.close(); },
        (e) => { console.error(e.message); process.exit(1); });`;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', './services/platform/src/telemetry/register.ts', '-e', script],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}')).toEqual({ echoed: 'hi', execArgv: [] });
  });
});
