// Child process for the delivery kill -9 test: starts the whole platform on the data folder argv[2].
// `create` uploads a real release (argv[3] MB master) for the stores in argv[4], approves it and prints
// `RELEASE <id>`; every run then prints `DONE <json of the jobs>` once every job is acknowledged or live.
// The parent SIGKILLs it whenever it likes: nothing here is written to survive that except the platform.
import { randomUUID } from 'node:crypto';
import { approve, createRealRelease, deliveryClient, startDeliveryPlatform } from '../delivery.fixtures';

const [dataDir, mode, seconds, storeList, releaseArg] = process.argv.slice(2);
if (!dataDir || !mode)
  throw new Error('usage: delivery-crash-child <dataDir> create|resume <seconds> <stores> [releaseId]');
const stores = (storeList ?? '').split(',').filter(Boolean);

async function main() {
  // The parent's DELIVERY_* settings (lease length, concurrency) reach the platform's configuration.
  const settings = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('DELIVERY_') && !!e[1]),
  );
  const omni = await startDeliveryPlatform(dataDir, { LOG_LEVEL: 'silent', ...settings });
  let releaseId = releaseArg ?? '';
  if (mode === 'create') {
    const owner = randomUUID();
    const token = await omni.token(owner);
    const release = await createRealRelease(omni, owner, token, stores, {}, Number(seconds));
    releaseId = release.id;
    process.stdout.write(`RELEASE ${release.id} ${release.upc}\n`);
  }
  const rpc = deliveryClient(omni);
  // A run killed while the review was still fetching the files leaves the release in review after the
  // restart (the submission event is handled again): the admin approves it then.
  const review = mode === 'create' ? null : (await rpc.listJobs({ releaseId })).review;
  if (mode === 'create' || !review || review.status === 'in_review') {
    await approve(rpc, releaseId);
    process.stdout.write('APPROVED\n');
  }
  for (;;) {
    const { jobs } = await rpc.listJobs({ releaseId });
    if (jobs.length > 0 && jobs.every((j) => j.status === 'acknowledged' || j.status === 'live')) {
      process.stdout.write(`DONE ${JSON.stringify(jobs)}\n`);
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  rpc.close();
  await omni.close({ keepData: true });
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
