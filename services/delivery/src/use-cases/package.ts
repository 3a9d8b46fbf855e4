// Packaging one store's batch: the catalog release and its staged files → the store's message (ingest:
// NewReleaseMessage with the store's deals; takedown: the same with no deals; purge: PurgeReleaseMessage),
// validated against the XSD, kept on disk, and its batch id and message id persisted on the job BEFORE
// anything is written to the store. A job resumed in `packaging` (a crash) finds its batch id and resends
// the same bytes, so the store never sees a second batch for one attempt.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@omni/platform';
import type { catalog } from '@omni/proto';
import type { CoverFacts } from '../domain/checks';
import {
  buildNewReleaseMessage,
  buildPurgeReleaseMessage,
  buildTakedownMessage,
  type ErnMessagingParty,
} from '../domain/ddex';
import type { JobDoc } from '../domain/job';
import { messageIdFor, nextBatchId } from '../domain/package/batch-id';
import { audioUri, batchFolderName, coverUri, inBatch, messagePath } from '../domain/package/layout';
import type { PackageFiles, StagedFile } from '../domain/package/model';
import {
  dealStart,
  dealsFor,
  ernRelease,
  messageHeader,
  PackageError,
  purgeInput,
} from '../domain/package/release-input';
import { releaseSchedule, releaseStartInstant, scheduledDeals } from '../domain/package/schedule';
import type { StoreProfile } from '../domain/stores/profile';
import { type AudioFormat, TranscodeError } from '../providers/transcoder/port';
import type { Batch, BatchFile } from '../providers/transport/port';
import type { FileFacts, VersionFiles } from '../store/versions';
import type { PipelineContext } from './pipeline-context';
import { StageError } from './stage-files';

/** `YYYYMMDDhhmmssnnn` → `YYYY-MM-DDThh:mm:ssZ`: the message's time follows from its batch id, so a
 * message (and its manifest) rebuilt for the same batch is byte for byte the same. */
export const batchTime = (batchId: string) =>
  `${batchId.slice(0, 4)}-${batchId.slice(4, 6)}-${batchId.slice(6, 8)}T${batchId.slice(8, 10)}:${batchId.slice(10, 12)}:${batchId.slice(12, 14)}Z`;

export const messageFile = (
  ctx: PipelineContext,
  job: Pick<JobDoc, 'releaseId' | 'target'>,
  batchId: string,
) => path.join(ctx.messagesRoot, job.releaseId, job.target, `${batchId}.xml`);

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The release this job sends: the version its approval pinned (read here, once per job, from delivery's own
 * store), or for a job approved before versions were kept, catalog's release and storage's cover facts.
 */
async function releaseOf(
  ctx: PipelineContext,
  job: JobDoc,
): Promise<{ release: catalog.Release; cover: CoverFacts | null; files: VersionFiles | null }> {
  if (job.versionId) {
    const version = await ctx.versions.find(job.versionId);
    if (!version) throw new PackageError(`the approved version ${job.versionId} is missing`);
    return { release: version.release, cover: version.cover, files: version.files };
  }
  const { release } = await ctx.catalog.getRelease({
    releaseId: job.releaseId,
    callerId: '',
    callerIsAdmin: true,
  });
  if (!release) throw new PackageError(`release ${job.releaseId} is not in the catalog`);
  return { release, cover: null, files: null };
}

async function stageFiles(
  ctx: PipelineContext,
  release: catalog.Release,
  profile: StoreProfile,
  known: CoverFacts | null,
  reviewed: VersionFiles | null,
): Promise<PackageFiles> {
  if (!release.artwork?.fileKey) throw new PackageError('the release has no cover image');
  const audio = new Map<string, Awaited<ReturnType<typeof ctx.stager.stage>>>();
  for (const track of release.tracks) {
    if (!track.audio?.fileKey) throw new PackageError(`track "${track.title}" has no master`);
    const master = await ctx.stager.stage(release.id, track.audio.bucket, track.audio.fileKey);
    sameAsReviewed(`track "${track.title}"'s master`, master, reviewed?.audio[track.id]);
    audio.set(track.id, await inStoreFormat(ctx, release.id, track, master, profile));
  }
  const { bucket, fileKey } = release.artwork;
  const cover = await ctx.stager.stage(release.id, bucket, fileKey);
  sameAsReviewed('the cover', cover, reviewed?.cover ?? undefined);
  // The version carries the cover's facts as review saw them; only an older job asks storage.
  const inspection = known?.width
    ? known
    : (await ctx.storage.getObjectInfo({ ownerId: release.ownerId, bucket, fileKey, role: 'artwork' }))
        .inspection;
  if (!inspection?.width || !inspection.height)
    throw new PackageError('storage could not measure the cover image');
  return {
    audio,
    cover,
    coverFacts: { format: inspection.format, width: inspection.width, height: inspection.height },
  };
}

/**
 * What the admin approved is what the store gets: a file whose bytes differ from the ones review fetched
 * is not sent (a version kept before review fetched files has nothing to compare).
 */
function sameAsReviewed(
  what: string,
  staged: { sha256: string; size: number },
  reviewed: FileFacts | undefined,
) {
  if (reviewed && (staged.sha256 !== reviewed.sha256 || staged.size !== reviewed.size))
    throw new PackageError(
      `${what} is not the file the review approved (its bytes changed); resubmit the release`,
    );
}

/** The master as it is when the store takes its format; otherwise the shared copy in `transcodeTo`. */
async function inStoreFormat(
  ctx: PipelineContext,
  releaseId: string,
  track: catalog.Track,
  master: StagedFile,
  profile: StoreProfile,
): Promise<StagedFile> {
  const format = (track.audioFormat?.format ?? '').toLowerCase() as AudioFormat;
  const { accepts, transcodeTo } = profile.audio;
  if (accepts.includes(format)) return master;
  if (!accepts.includes(transcodeTo) || format === transcodeTo)
    throw new PackageError(
      `store ${profile.key} takes ${accepts.join(', ')} and track "${track.title}" is ${format || 'of no known format'}`,
    );
  try {
    return await ctx.stager.transcode(releaseId, master, format, transcodeTo);
  } catch (err) {
    // A master the encoder cannot read will not get better by retrying: a person must look at it.
    if (err instanceof TranscodeError || err instanceof StageError)
      throw new PackageError(`track "${track.title}" cannot be made ${transcodeTo}: ${err.message}`);
    throw err;
  }
}

function buildXml(
  sender: ErnMessagingParty,
  job: JobDoc,
  profile: StoreProfile,
  release: catalog.Release,
  files: PackageFiles | null,
  ids: { batchId: string; messageId: string },
): string {
  const header = messageHeader(
    sender,
    profile,
    { messageId: ids.messageId, releaseId: release.id },
    batchTime(ids.batchId),
  );
  if (job.jobKind === 'purge') return buildPurgeReleaseMessage(purgeInput(header, release));
  if (!files) throw new PackageError('the release files were not staged');
  const firstSent = job.steps.find((s) => s.status === 'packaging')?.at ?? batchTime(ids.batchId);
  const start = dealStart(release, firstSent);
  const ern = ernRelease(release, files, start);
  if (job.jobKind === 'takedown') return buildTakedownMessage({ header, release: ern });
  const schedule = releaseSchedule(release, start);
  return buildNewReleaseMessage({
    header,
    release: schedule.visibleFrom
      ? { ...ern, visibility: { reference: 'V1', from: schedule.visibleFrom } }
      : ern,
    deals: scheduledDeals(dealsFor(profile, start, release.excludedTerritories), schedule),
  });
}

/** The batch for a claimed job in `packaging`; persists its ids first when it is a new one. */
export async function packageJob(ctx: PipelineContext, job: JobDoc, profile: StoreProfile): Promise<Batch> {
  const { release, cover, files: reviewed } = await releaseOf(ctx, job);
  const files = job.jobKind === 'purge' ? null : await stageFiles(ctx, release, profile, cover, reviewed);
  let { batchId, messageId } = job;
  let xml: Buffer | null = null;
  if (batchId && messageId) xml = await fs.readFile(messageFile(ctx, job, batchId)).catch(() => null);
  if (!batchId || !messageId || !xml) {
    batchId = nextBatchId(ctx.now().getTime());
    messageId = messageIdFor(batchId, job.target);
    const text = buildXml(ctx.sender, job, profile, release, files, { batchId, messageId });
    const verdict = await ctx.validator.validate(text);
    if (!verdict.valid) {
      const words = verdict.errors.map((e) => `line ${e.line}: ${e.message}`).join('; ');
      throw new PackageError(`the ${job.jobKind} message does not validate against ERN 4.3: ${words}`);
    }
    xml = Buffer.from(text, 'utf8');
    const file = messageFile(ctx, job, batchId);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    await fs.writeFile(`${file}.part`, xml, { mode: PRIVATE_FILE_MODE, flush: true });
    await fs.rename(`${file}.part`, file);
    const liveAt = releaseStartInstant(release) ?? ctx.now().toISOString();
    const at = ctx.now().toISOString();
    if (!(await ctx.jobs.recordMessage(job, ctx.workerId, { batchId, messageId, liveAt, at })))
      throw new LostLease(job._id);
  }
  return assembleBatch(ctx, profile, release, files, { batchId, messageId }, xml);
}

function assembleBatch(
  ctx: PipelineContext,
  profile: StoreProfile,
  release: catalog.Release,
  files: PackageFiles | null,
  ids: { batchId: string; messageId: string },
  xml: Buffer,
): Batch {
  const upc = release.upc;
  const batchFiles: BatchFile[] = [];
  if (files) {
    // The resource names are the ones the message gives (File/URI), under the release folder.
    for (const track of release.tracks) {
      const staged = files.audio.get(track.id)!;
      const ext = (staged.format ?? track.audioFormat?.format ?? '').toLowerCase();
      batchFiles.push(stagedFile(ids.batchId, `${upc}/${audioUri(upc, track.isrc, ext)}`, staged));
    }
    const ext = files.coverFacts.format.toLowerCase().replace('jpeg', 'jpg');
    batchFiles.push(stagedFile(ids.batchId, `${upc}/${coverUri(upc, ext)}`, files.cover));
  }
  const xmlSha = sha256(xml);
  // The message first, the resources after it: a store reading the folder early sees what to expect.
  batchFiles.unshift({
    path: inBatch(ids.batchId, messagePath(upc)),
    source: () =>
      createReadStream(messageFile(ctx, { releaseId: release.id, target: profile.key }, ids.batchId)),
    size: xml.length,
    sha256: xmlSha,
  });
  const manifest = Buffer.from(
    ctx.buildBatchComplete({
      batchId: ids.batchId,
      sender: ctx.sender,
      recipient: { partyId: profile.partyId, name: profile.partyName },
      createdAt: batchTime(ids.batchId),
      messages: [{ path: messagePath(upc), messageId: ids.messageId, releaseIds: [upc], sha256: xmlSha }],
    }),
    'utf8',
  );
  return {
    batchId: ids.batchId,
    folder: batchFolderName(ids.batchId),
    files: batchFiles,
    manifest: { source: () => Readable.from([manifest]), size: manifest.length, sha256: sha256(manifest) },
  };
}

function stagedFile(
  batchId: string,
  relative: string,
  staged: { path: string; size: number; sha256: string },
): BatchFile {
  return {
    path: inBatch(batchId, relative),
    source: () => createReadStream(staged.path),
    size: staged.size,
    sha256: staged.sha256,
    localPath: staged.path,
  };
}

/** Another worker took the job over (our lease expired): stop without touching it. */
export class LostLease extends Error {
  override name = 'LostLease';
  constructor(jobId: string) {
    super(`lost the lease on ${jobId}`);
  }
}
