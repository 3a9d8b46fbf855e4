// A topic the controller has just created is not served at once: until the broker has applied the new
// metadata, requests for it fail with UNKNOWN_TOPIC_OR_PARTITION ("This server does not host this
// topic-partition") or LEADER_NOT_AVAILABLE. kafkajs' createTopics({ waitForLeaders }) retries only the
// latter, so on Kafka 4 its wait itself could fail right after a successful creation.
import type { Admin } from 'kafkajs';

/** Error types that mean "not there yet" for a topic that was created (or seen) a moment ago. */
const NOT_YET = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION']);
const POLL_MS = 100;

/** Resolves once every partition of every topic has a leader; rejects after `timeoutMs` with the reason. */
export async function waitForTopicLeaders(admin: Admin, topics: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no metadata yet';
  for (;;) {
    try {
      const { topics: found } = await admin.fetchTopicMetadata({ topics });
      const waiting = topics.filter((name) => {
        const partitions = found.find((t) => t.name === name)?.partitions ?? [];
        return partitions.length === 0 || partitions.some((p) => p.partitionErrorCode !== 0 || p.leader < 0);
      });
      if (waiting.length === 0) return;
      lastProblem = `no leader yet for ${waiting.join(', ')}`;
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (!type || !NOT_YET.has(type)) throw error;
      lastProblem = (error as Error).message;
    }
    if (Date.now() > deadline)
      throw new Error(
        `Kafka did not make the topics ${topics.join(', ')} available within ${timeoutMs} ms (${lastProblem})`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
