// Child process for the kill -9 test (test/events-crash.test.ts). It opens the embedded event log and
// reports, one line per event on stdout, what it has been told is durable:
//   publish <dataDir>         "ack <key> <seq>" after each publish resolves (acknowledged = durable)
//   consume <dataDir> <group> "handled <partition> <offset> <value>" at the end of each handler
// It stops by itself after a while so a test that forgets it cannot leave it running.
import { createEmbeddedEventBus } from '../../src/adapters/events-embedded';

const [mode, dataDir, groupId] = process.argv.slice(2);
const TOPIC = 'crash.events';
const SELF_STOP_MS = 20_000;

// Pipes to the parent are synchronous on POSIX, so a printed line reached the parent before any kill.
const say = (line: string) => process.stdout.write(`${line}\n`);

async function publish(dir: string): Promise<void> {
  const bus = createEmbeddedEventBus({ dataDir: dir, partitions: 3 });
  await bus.ensureTopics([TOPIC]);
  say('ready');
  const padding = 'x'.repeat(2048); // bigger records: a kill lands mid-write more often
  // Four writers with their own keys publishing concurrently, so appends share group commits.
  await Promise.all(
    [0, 1, 2, 3].map(async (writer) => {
      const key = `key-${writer}`;
      for (let seq = 0; ; seq += 2) {
        await bus.publish(TOPIC, [
          { key, value: JSON.stringify({ seq, padding }) },
          { key, value: JSON.stringify({ seq: seq + 1, padding }) },
        ]);
        say(`ack ${key} ${seq}`);
        say(`ack ${key} ${seq + 1}`);
      }
    }),
  );
}

async function consume(dir: string, group: string): Promise<void> {
  const bus = createEmbeddedEventBus({ dataDir: dir });
  await bus.subscribe({
    groupId: group,
    topics: [TOPIC],
    handler: async (m) => {
      await new Promise((resolve) => setTimeout(resolve, 4));
      say(`handled ${m.partition} ${m.offset} ${m.value}`);
    },
  });
  say('ready');
}

setTimeout(() => process.exit(3), SELF_STOP_MS).unref();
const run =
  mode === 'publish' && dataDir
    ? publish(dataDir)
    : mode === 'consume' && dataDir && groupId
      ? consume(dataDir, groupId)
      : undefined;
if (!run) {
  process.stderr.write('usage: events-crash-child.ts publish <dataDir> | consume <dataDir> <groupId>\n');
  process.exit(2);
}
run.catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
