// A random-access tokenizer over a stored object, for file-type and music-metadata. Parsers jump around
// (a WAV's data chunk is skipped, an MP3's ID3v1 tag sits at the end), so each read asks the objects port
// for just that byte range instead of streaming the whole file through: a 2 GB master is inspected by
// reading a few kilobytes, and memory never depends on the file's size.

import { AbstractTokenizer, EndOfStreamError, type IFileInfo, type IReadChunkOptions } from 'strtok3';
import type { ObjectStore } from '../providers/objects/port';

/** Reads are rounded up to this, so a parser's many small reads cost one range request per block. */
const BLOCK_BYTES = 64 * 1024;

export class ObjectTokenizer extends AbstractTokenizer {
  fileInfo: IFileInfo;
  private cache: { start: number; bytes: Buffer } | undefined;
  /** Range requests made; tests and logs use it to show that a large file was not read through. */
  reads = 0;

  constructor(
    private readonly objects: ObjectStore,
    private readonly bucket: string,
    private readonly key: string,
    size: number,
    /** A name whose extension tells music-metadata which parser to use (the sniffed one, not the uploader's). */
    pathHint?: string,
  ) {
    super();
    this.fileInfo = { size, ...(pathHint ? { path: pathHint } : {}) };
  }

  supportsRandomAccess(): boolean {
    return true;
  }

  setPosition(position: number): void {
    this.position = position;
  }

  async readBuffer(buffer: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const normalised = this.normalizeOptions(buffer, options);
    const read = await this.peekBuffer(buffer, normalised);
    this.position = normalised.position + read;
    return read;
  }

  async peekBuffer(buffer: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { position, length, mayBeLess } = this.normalizeOptions(buffer, options);
    const size = this.fileInfo.size ?? 0;
    const wanted = Math.max(0, Math.min(size - position, length));
    if (!mayBeLess && wanted < length) throw new EndOfStreamError();
    let done = 0;
    while (done < wanted) {
      const at = position + done;
      const block = await this.blockAt(at, wanted - done);
      const from = at - block.start;
      const take = Math.min(block.bytes.length - from, wanted - done);
      if (take <= 0) throw new EndOfStreamError();
      buffer.set(block.bytes.subarray(from, from + take), done);
      done += take;
    }
    return wanted;
  }

  private async blockAt(position: number, atLeast: number): Promise<{ start: number; bytes: Buffer }> {
    const cached = this.cache;
    if (cached && position >= cached.start && position < cached.start + cached.bytes.length) return cached;
    const size = this.fileInfo.size ?? 0;
    const end = Math.min(size, position + Math.max(BLOCK_BYTES, Math.min(atLeast, 16 * BLOCK_BYTES))) - 1;
    const stream = await this.objects.getObject(this.bucket, this.key, { start: position, end });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    this.reads++;
    this.cache = { start: position, bytes: Buffer.concat(chunks) };
    return this.cache;
  }
}
