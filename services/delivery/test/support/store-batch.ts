// A real release on disk and its DDEX batch, for the store simulator tests: random audio and cover bytes
// with their true hashes and sizes in a real ERN 4.3 NewReleaseMessage, delivered through a transport.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildBatchComplete, buildNewReleaseMessage, type ErnNewReleaseInput } from '../../src/domain/ddex';
import type { Batch, BatchFile } from '../../src/providers/transport/port';
import { singleInput } from './ern-fixtures';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

export interface SourceRelease {
  input: ErnNewReleaseInput;
  /** Resource files: path relative to the release folder → where its bytes are on disk. */
  resources: Array<{ uri: string; file: string; size: number }>;
}

/** A single with a real master (`audioBytes` long, hashed with SHA-256) and cover (hashed with MD5). */
export function sourceRelease(dir: string, upc: string, audioBytes = 256 * 1024): SourceRelease {
  mkdirSync(dir, { recursive: true });
  const audio = randomBytes(audioBytes);
  const cover = randomBytes(20_000);
  const audioUri = `resources/${upc}_T1_SoundRecording.flac`;
  const coverUri = `resources/${upc}_T2_Image.jpg`;
  const audioFile = path.join(dir, `${upc}.flac`);
  const coverFile = path.join(dir, `${upc}.jpg`);
  writeFileSync(audioFile, audio);
  writeFileSync(coverFile, cover);
  const base = singleInput();
  const [track] = base.release.recordings as [ErnNewReleaseInput['release']['recordings'][number]];
  const input: ErnNewReleaseInput = {
    ...base,
    header: { ...base.header, messageId: `msg-${upc}` },
    release: {
      ...base.release,
      upc,
      recordings: [
        {
          ...track,
          audio: {
            ...track.audio,
            file: {
              uri: audioUri,
              hash: { algorithm: 'SHA-256', value: sha256(audio) },
              sizeBytes: audio.length,
            },
          },
        },
      ],
      cover: {
        ...base.release.cover,
        file: { uri: coverUri, hash: { algorithm: 'MD5', value: md5(cover) }, sizeBytes: cover.length },
      },
    },
  };
  return {
    input,
    resources: [
      { uri: audioUri, file: audioFile, size: audio.length },
      { uri: coverUri, file: coverFile, size: cover.length },
    ],
  };
}

export interface BatchOptions {
  batchId: string;
  /** Replaces the message XML (after it is built), e.g. to break it. */
  editXml?: (xml: string) => string;
  /** Leaves these resource URIs out of the batch. */
  omit?: string[];
  /** The manifest's bytes are given only once this settles: the batch stays without BatchComplete. */
  manifestGate?: Promise<void>;
}

export function releaseBatch(release: SourceRelease, options: BatchOptions): Batch {
  const { upc } = release.input.release;
  const folder = `N_${options.batchId}`;
  const xml = (options.editXml ?? ((x) => x))(buildNewReleaseMessage(release.input));
  const files: BatchFile[] = [
    {
      path: `${folder}/${upc}/${upc}.xml`,
      source: () => Readable.from([Buffer.from(xml)]),
      size: Buffer.byteLength(xml),
    },
    ...release.resources
      .filter((r) => !options.omit?.includes(r.uri))
      .map((r) => ({
        path: `${folder}/${upc}/${r.uri}`,
        source: () => createReadStream(r.file),
        size: r.size,
      })),
  ];
  const manifest = buildBatchComplete({
    batchId: options.batchId,
    sender: release.input.header.sender,
    recipient: release.input.header.recipient,
    createdAt: new Date().toISOString(),
    messages: [
      {
        path: `${upc}/${upc}.xml`,
        messageId: release.input.header.messageId,
        releaseIds: [upc],
        sha256: sha256(xml),
      },
    ],
  });
  return {
    batchId: options.batchId,
    folder,
    files,
    manifest: {
      source: () =>
        Readable.from(
          (async function* () {
            await options.manifestGate;
            yield Buffer.from(manifest);
          })(),
        ),
      size: Buffer.byteLength(manifest),
    },
  };
}

/** Overwrites a file in place with other bytes of the same length (a corrupted upload). */
export function corrupt(file: string, size: number): void {
  writeFileSync(file, randomBytes(size));
}
