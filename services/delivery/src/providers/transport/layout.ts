// Batch layout rules shared by every adapter: where BatchComplete goes, what a temporary name looks like,
// and which paths a batch may name (relative, inside its own folder, no `..`): a path trick in a file name
// must never write outside the batch.
import path from 'node:path/posix';
import { type Batch, TransportError } from './port';

const BATCH_ID = /^\d{17}$/;
/** Suffix of a file still being written; never a name a store acts on. */
export const TEMP_SUFFIX = '.omni-part';

export function batchFolder(batch: Batch): string {
  return batch.folder ?? batch.batchId;
}

export function manifestPath(batch: Batch): string {
  return `${batchFolder(batch)}/BatchComplete_${batch.batchId}.xml`;
}

/** A sibling of the final name, so a rename never crosses directories. */
export function tempPath(finalPath: string): string {
  return `${finalPath}${TEMP_SUFFIX}`;
}

export function checkBatch(batch: Batch): void {
  if (!BATCH_ID.test(batch.batchId)) {
    throw new TransportError('bad-batch', `batch id "${batch.batchId}" is not YYYYMMDDhhmmssnnn`);
  }
  const folder = batchFolder(batch);
  if (!isSafeRelative(folder) || folder.includes('/')) {
    throw new TransportError('bad-batch', `batch folder "${folder}" must be a single plain folder name`);
  }
  const seen = new Set<string>();
  for (const file of batch.files) {
    if (!isSafeRelative(file.path) || !file.path.startsWith(`${folder}/`)) {
      throw new TransportError('bad-batch', `file "${file.path}" is not a relative path inside ${folder}/`);
    }
    if (file.path.endsWith(TEMP_SUFFIX) || file.path === manifestPath(batch)) {
      throw new TransportError('bad-batch', `file "${file.path}" uses a name reserved for the transport`);
    }
    if (seen.has(file.path)) throw new TransportError('bad-batch', `file "${file.path}" is listed twice`);
    seen.add(file.path);
    if (!Number.isSafeInteger(file.size) || file.size < 0) {
      throw new TransportError('bad-batch', `file "${file.path}" has no valid size`);
    }
  }
}

function isSafeRelative(p: string): boolean {
  return (
    p.length > 0 &&
    !p.startsWith('/') &&
    !p.includes('\\') &&
    !p.includes('\0') &&
    path.normalize(p) === p &&
    !p.split('/').some((part) => part === '..' || part === '.' || part === '')
  );
}

/** An acknowledgement is one plain name in the ack folder: no path tricks. */
export function checkAckName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new TransportError('not-found', `"${name}" is not an acknowledgement file name`);
  }
}

/** Where acknowledgements already acted on go, inside the acknowledgement folder. */
export const PROCESSED_ACK_FOLDER = 'processed';
