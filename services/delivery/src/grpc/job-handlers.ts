// DeliveryService, the pipeline's calls: takedown and purge, the
// DDEX message made for a store, the dead letters and their replay, and the store simulator's settings.
// Catalog owns who may see a release; the gateway asks it first and only then asks here.
import fs from 'node:fs/promises';
import { fail, invalidArgument, type UnaryImpl } from '@omni/platform';
import type { delivery } from '@omni/proto';
import { DELIVERY_MESSAGES, SIMULATOR_MODES, type SimulatorMode } from '@omni/proto/api';
import { jobToProto } from '../domain/job';
import type { JobsRepository } from '../store/jobs';
import { messageFile } from '../use-cases/package';
import type { PipelineContext } from '../use-cases/pipeline-context';
import { queueRemoval, queueReRelease, replayDeadLetter } from '../use-cases/takedown';

const DEAD_LETTER_PAGE = 200;

export interface SimulatorControl {
  configure(
    target: string,
    settings: { mode: SimulatorMode; times: number; reason: string; delayMs?: number },
  ): Promise<unknown>;
  /** The simulated stores' sales and trend reports for the month so far; how many files were written. */
  writeReports(): Promise<number>;
}

export interface JobHandlerDeps {
  jobs: JobsRepository;
  pipeline: PipelineContext;
  /** Wakes the worker (a takedown, a replay). */
  wake: () => void;
  /** The embedded store simulator; null outside simulator mode. */
  simulator: SimulatorControl | null;
}

type JobCalls =
  | 'takeDown'
  | 'purgeRelease'
  | 'reRelease'
  | 'getErn'
  | 'listDeadLetters'
  | 'replayDeadLetter'
  | 'configureSimulator'
  | 'writeStoreReports';

export function jobHandlers(
  deps: JobHandlerDeps,
): Pick<UnaryImpl<typeof delivery.DeliveryServiceService>, JobCalls> {
  const { jobs, pipeline } = deps;
  return {
    async takeDown(req) {
      if (!req.releaseId) throw invalidArgument('A release id is required.');
      const changed = await queueRemoval(pipeline, {
        releaseId: req.releaseId,
        stores: req.stores,
        kind: 'takedown',
      });
      deps.wake();
      return { jobs: changed.map(jobToProto) };
    },

    async purgeRelease(req) {
      if (!req.releaseId) throw invalidArgument('A release id is required.');
      const changed = await queueRemoval(pipeline, {
        releaseId: req.releaseId,
        stores: req.stores,
        kind: 'purge',
      });
      deps.wake();
      return { jobs: changed.map(jobToProto) };
    },

    async reRelease(req) {
      if (!req.releaseId) throw invalidArgument('A release id is required.');
      const changed = await queueReRelease(pipeline, { releaseId: req.releaseId, stores: req.stores });
      deps.wake();
      return { jobs: changed.map(jobToProto) };
    },

    async getErn(req) {
      if (!req.releaseId || !req.target) throw invalidArgument('A release id and a store are required.');
      const job = await jobs.ofStore(req.releaseId, req.target);
      if (!job) throw fail('store_not_in_release', DELIVERY_MESSAGES.storeNotInRelease);
      if (!job.batchId || !job.messageId) throw fail('ern_not_found', DELIVERY_MESSAGES.ernNotFound);
      const xml = await fs.readFile(messageFile(pipeline, job, job.batchId), 'utf8').catch(() => null);
      if (xml === null) throw fail('ern_not_found', DELIVERY_MESSAGES.ernNotFound);
      const upc = /<ICPN>([^<]+)<\/ICPN>/.exec(xml)?.[1] ?? job.releaseId;
      return { xml, messageId: job.messageId, fileName: `${upc}.xml` };
    },

    async listDeadLetters(req) {
      const limit = Math.min(Math.max(req.limit || DEAD_LETTER_PAGE, 1), DEAD_LETTER_PAGE);
      const list = await jobs.deadLetters(limit);
      return { jobs: list.map(jobToProto) };
    },

    async replayDeadLetter(req) {
      if (!req.releaseId || !req.target) throw invalidArgument('A release id and a store are required.');
      const job = await replayDeadLetter(pipeline, req.releaseId, req.target);
      deps.wake();
      return { job: jobToProto(job) };
    },

    async writeStoreReports(req) {
      if (!deps.simulator) return { available: false, files: 0 };
      if (req.dryRun) return { available: true, files: 0 };
      return { available: true, files: await deps.simulator.writeReports() };
    },
    async configureSimulator(req) {
      if (!deps.simulator) throw fail('simulator_unavailable', DELIVERY_MESSAGES.simulatorOnly);
      if (!(SIMULATOR_MODES as readonly string[]).includes(req.mode))
        throw invalidArgument("mode must be 'accept', 'reject' or 'fail'.");
      if (!pipeline.profileOf(req.target)) throw invalidArgument(`There is no store "${req.target}".`);
      await deps.simulator.configure(req.target, {
        mode: req.mode as SimulatorMode,
        times: req.times,
        reason: req.reason,
        ...(req.delayMs !== undefined ? { delayMs: req.delayMs } : {}),
      });
      return {};
    },
  };
}
