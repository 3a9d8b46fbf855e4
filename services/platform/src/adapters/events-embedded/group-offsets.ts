// A consumer group's committed offsets: <root>/groups/<base64url(groupId)>.json, rewritten atomically
// (temp file + rename) on commit. Commits from all partitions of the group share one write via the
// coalescer, so committing after every message stays cheap.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Coalescer } from './coalescer';
import { writeFileAtomic } from './fs-durable';

const fileSchema = z.object({
  version: z.literal(1),
  groupId: z.string(),
  offsets: z.record(z.string(), z.record(z.string(), z.number().int().min(0))),
});

export class GroupOffsets {
  /** topic → partition → next offset to consume. */
  private readonly offsets: Map<string, Map<number, number>>;
  private readonly flusher = new Coalescer(() => this.write());

  private constructor(
    readonly groupId: string,
    private readonly file: string,
    offsets: Map<string, Map<number, number>>,
    private readonly fsync: boolean,
  ) {
    this.offsets = offsets;
  }

  static load(root: string, groupId: string, fsync: boolean): GroupOffsets {
    const dir = path.join(root, 'groups');
    fs.mkdirSync(dir, { recursive: true });
    // base64url keeps any group id a safe, reversible file name.
    const file = path.join(dir, `${Buffer.from(groupId).toString('base64url')}.json`);
    const offsets = new Map<string, Map<number, number>>();
    if (fs.existsSync(file)) {
      const parsed = fileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
      for (const [topic, partitions] of Object.entries(parsed.offsets)) {
        offsets.set(topic, new Map(Object.entries(partitions).map(([p, offset]) => [Number(p), offset])));
      }
    }
    return new GroupOffsets(groupId, file, offsets, fsync);
  }

  get(topic: string, partition: number): number | undefined {
    return this.offsets.get(topic)?.get(partition);
  }

  /** Records `next` as the next offset to consume and resolves once that is on disk. */
  commit(topic: string, partition: number, next: number): Promise<void> {
    let partitions = this.offsets.get(topic);
    if (!partitions) {
      partitions = new Map();
      this.offsets.set(topic, partitions);
    }
    partitions.set(partition, next);
    return this.flusher.request();
  }

  flush(): Promise<void> {
    return this.flusher.request();
  }

  private write(): Promise<void> {
    const offsets: Record<string, Record<string, number>> = {};
    for (const [topic, partitions] of this.offsets) offsets[topic] = Object.fromEntries(partitions);
    return writeFileAtomic(
      this.file,
      JSON.stringify({ version: 1, groupId: this.groupId, offsets }),
      this.fsync,
    );
  }
}
