// Topics on disk: <root>/topics/<topic>/topic.json holds the partition count (fixed at creation, as in
// Kafka) and <partition>.log holds each partition. Topics are opened lazily on first use.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../data-dir/modes';
import type { Logger } from '../../logging/logger';
import { assertPartitionCount, assertTopicName } from '../events-shared';
import { fsyncDirSync, writeFileAtomicSync } from './fs-durable';
import { PartitionLog } from './partition-log';

export interface Topic {
  name: string;
  partitions: PartitionLog[];
}

const topicMetaSchema = z.object({ version: z.literal(1), partitions: z.number().int().min(1) });

export class TopicStore {
  private readonly topics = new Map<string, Topic>();
  private readonly dir: string;

  constructor(
    root: string,
    private readonly options: {
      fsync: boolean;
      logger: Logger;
      defaultPartitions: number;
      recentRecords?: number;
    },
  ) {
    this.dir = path.join(root, 'topics');
    fs.mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  /** The topic if it exists in memory or on disk, without creating it. */
  find(name: string): Topic | undefined {
    assertTopicName(name);
    const open = this.topics.get(name);
    if (open) return open;
    const metaFile = path.join(this.dir, name, 'topic.json');
    if (!fs.existsSync(metaFile)) return undefined;
    const meta = topicMetaSchema.parse(JSON.parse(fs.readFileSync(metaFile, 'utf8')));
    return this.openTopic(name, meta.partitions);
  }

  /** Opens the topic, creating it with `partitions` (default from options) if it does not exist. */
  ensure(name: string, partitions?: number): Topic {
    const existing = this.find(name);
    if (existing) {
      if (partitions !== undefined && partitions !== existing.partitions.length) {
        this.options.logger.warn(
          { topic: name, existing: existing.partitions.length, requested: partitions },
          'topic exists with a different partition count; keeping the existing one',
        );
      }
      return existing;
    }
    const count = assertPartitionCount(partitions ?? this.options.defaultPartitions);
    const topicDir = path.join(this.dir, name);
    fs.mkdirSync(topicDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    for (let p = 0; p < count; p++)
      fs.closeSync(fs.openSync(path.join(topicDir, `${p}.log`), 'a', PRIVATE_FILE_MODE));
    // topic.json last: a topic directory without it (crash during creation) is simply created again.
    writeFileAtomicSync(
      path.join(topicDir, 'topic.json'),
      JSON.stringify({ version: 1, partitions: count }),
      this.options.fsync,
    );
    if (this.options.fsync) fsyncDirSync(this.dir);
    return this.openTopic(name, count);
  }

  all(): Topic[] {
    return [...this.topics.values()];
  }

  get healthy(): boolean {
    return this.all().every((topic) => topic.partitions.every((log) => log.healthy));
  }

  async close(): Promise<void> {
    await Promise.all(this.all().flatMap((topic) => topic.partitions.map((log) => log.close())));
    this.topics.clear();
  }

  private openTopic(name: string, partitions: number): Topic {
    const topicDir = path.join(this.dir, name);
    const logs: PartitionLog[] = [];
    for (let p = 0; p < partitions; p++) {
      logs.push(
        PartitionLog.open(path.join(topicDir, `${p}.log`), {
          fsync: this.options.fsync,
          logger: this.options.logger,
          recentRecords: this.options.recentRecords,
        }),
      );
    }
    const topic = { name, partitions: logs };
    this.topics.set(name, topic);
    return topic;
  }
}
