// The stores' report folder: files appear there (a store's SFTP drop; the store simulator's reports under
// `npm start`) and are imported once each. A file is taken only when its size has not changed between two
// looks (a store still writing it is left for the next look); DSR_* files are statements, TREND_* files
// estimated daily streams. Files are never moved or deleted: the folder is the stores', and the imports
// know each file by its SHA-256, so looking again imports nothing twice.
import { createReadStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@omni/platform';

export type InboxFile = { name: string; path: string; kind: 'dsr' | 'trend'; key: string };

export class ReportFolder {
  private readonly sizes = new Map<string, number>();
  private readonly done = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> | null = null;

  constructor(
    readonly dir: string,
    private readonly take: (file: InboxFile, open: () => NodeJS.ReadableStream) => Promise<void>,
    private readonly logger: Logger,
    private readonly everyMs = 5000,
  ) {}

  async start() {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.timer = setInterval(() => void this.look(), this.everyMs);
    this.timer.unref();
    void this.look();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.busy;
  }

  /** One look at the folder (also called right after the simulator wrote its reports). */
  look(immediate = false): Promise<void> {
    if (this.busy) return this.busy.then(() => this.look(immediate));
    this.busy = this.scan(immediate)
      .catch((err) => this.logger.warn({ err }, 'royalties: could not read the store report folder'))
      .finally(() => {
        this.busy = null;
      });
    return this.busy;
  }

  private async scan(immediate: boolean) {
    const names = (await readdir(this.dir)).filter((n) => !n.startsWith('.') && !n.endsWith('.part')).sort();
    for (const name of names) {
      const kind = /^DSR_/i.test(name) ? 'dsr' : /^TREND_/i.test(name) ? 'trend' : null;
      if (!kind) continue;
      const path = join(this.dir, name);
      const s = await stat(path).catch(() => null);
      if (!s?.isFile()) continue;
      const key = `${name}|${s.size}|${s.mtimeMs}`;
      if (this.done.has(key)) continue;
      if (!immediate && this.sizes.get(name) !== s.size) {
        this.sizes.set(name, s.size);
        continue;
      }
      await this.take({ name, path, kind, key }, () => createReadStream(path));
      this.done.add(key);
    }
  }
}
