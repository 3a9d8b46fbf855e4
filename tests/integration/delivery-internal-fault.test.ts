// A delivery job that fails for a reason of our own (issue 21 §1.1: the ERN validator's worker restarting)
// tells the artist in words — never "validator exited (code 1)" — is never dead-lettered for it, however
// long the fault lasts, and is delivered once the fault is gone. The fault is injected into the validator
// the platform builds (its first validations refused as a restarting worker refuses them); the pipeline,
// the stores and the platform around it are the real ones.
import { randomUUID } from 'node:crypto';
import { WorkerUnavailableError } from '@omni/platform';
import { approve, createRealRelease, deliveryClient, startDeliveryPlatform } from './delivery.fixtures';
import { type ReleasePlatform, waitUntil } from './releases.fixtures';

const FAILING_VALIDATIONS = 6;
let refused = 0;

jest.mock('../../services/delivery/src/domain/ddex/validate', () => {
  const real = jest.requireActual('../../services/delivery/src/domain/ddex/validate');
  return {
    ...real,
    createErnValidator: (...args: unknown[]) => {
      const validator = real.createErnValidator(...args);
      return {
        validate: (xml: string) => {
          if (refused < FAILING_VALIDATIONS) {
            refused += 1;
            return Promise.reject(new WorkerUnavailableError('ERN validator is restarting'));
          }
          return validator.validate(xml);
        },
        close: () => validator.close(),
      };
    },
  };
});

let omni: ReleasePlatform;
let rpc: ReturnType<typeof deliveryClient>;

beforeAll(async () => {
  // Two attempts would dead-letter a store's own failure; ours must not spend them.
  omni = await startDeliveryPlatform(undefined, { DELIVERY_MAX_ATTEMPTS: '2' });
  rpc = deliveryClient(omni);
}, 60_000);
afterAll(async () => {
  rpc?.close();
  await omni?.close();
});

it('says "we could not prepare your release for <store>; we are retrying" and delivers once the fault is gone', async () => {
  const artist = randomUUID();
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['spotify', 'tidal']);
  await approve(rpc, release.id);

  const reasons = new Set<string>();
  const jobs = await waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId: release.id });
      for (const j of jobs) if (j.reason) reasons.add(`${j.target}: ${j.reason}`);
      return jobs.length === 2 && jobs.every((j) => j.status === 'live') ? jobs : undefined;
    },
    60_000,
    'both stores live after the fault',
  );
  expect(refused).toBe(FAILING_VALIDATIONS);
  expect([...reasons].sort()).toEqual([
    'spotify: We could not prepare your release for Spotify; we are retrying.',
    'tidal: We could not prepare your release for TIDAL; we are retrying.',
  ]);
  // Six refusals over two stores: at least one store went past the two attempts a store's own failure
  // is allowed, and was not dead-lettered for it.
  expect(jobs.some((j) => j.attempts > 2)).toBe(true);
}, 90_000);
