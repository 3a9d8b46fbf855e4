// A group member in a process of its own whose handler never finishes, so a test can kill it with
// SIGKILL mid-message: a real crash, with no close() to stop, commit or leave the group. Run as
// `node --import tsx events-crash-member.ts '<json>'`; it prints HANDLING <value> when a message reaches
// the handler.
import { createEmbeddedEventBus } from '../../src/adapters/events-embedded';
import { createKafkaEventBus } from '../../src/adapters/events-kafka';
import type { EventBus } from '../../src/ports/events';

export type CrashMemberConfig = { groupId: string; topic: string } & (
  | { kind: 'embedded'; dataDir: string }
  | { kind: 'kafka'; brokers: string[]; sessionTimeoutMs: number }
);

async function main(config: CrashMemberConfig): Promise<void> {
  const bus: EventBus =
    config.kind === 'embedded'
      ? createEmbeddedEventBus({ dataDir: config.dataDir })
      : createKafkaEventBus({
          brokers: config.brokers,
          clientId: 'omni-contract-crash-member',
          sessionTimeoutMs: config.sessionTimeoutMs,
        });
  await bus.subscribe({
    groupId: config.groupId,
    topics: [config.topic],
    handler: (message) => {
      process.stdout.write(`HANDLING ${message.value}\n`);
      return new Promise<void>(() => undefined);
    },
  });
  process.stdout.write('SUBSCRIBED\n');
}

main(JSON.parse(process.argv[2] ?? '{}') as CrashMemberConfig).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
