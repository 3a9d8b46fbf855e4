// A statement file arriving: an admin's upload (through the gateway, which checked the admin and asked
// for a one-use upload path) or a file a store dropped in the report folder. The bytes go to the spool;
// the same bytes sent twice are the earlier import, untouched.
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { MAX_STATEMENT_BYTES, type StatementSource } from '@omni/proto/api';
import type { Spool } from '../providers/spool/local';
import type { ImportDoc, ImportsRepository } from '../store/imports';
import type { ImportRunner } from './run-imports';

/** How long the upload path handed to the gateway stays good. */
const UPLOAD_WINDOW_MS = 10 * 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ReceiveDeps {
  imports: ImportsRepository;
  spool: Spool;
  runner: ImportRunner;
}

export async function openUpload(
  deps: ReceiveDeps,
  input: { source: StatementSource; fileName: string; adminId: string },
) {
  const token = randomBytes(32).toString('base64url');
  const imp = await deps.imports.open({
    source: input.source,
    fileName: input.fileName,
    via: 'upload',
    createdBy: input.adminId,
    tokenHash: hashToken(token),
    tokenExpiresAt: new Date(Date.now() + UPLOAD_WINDOW_MS).toISOString(),
  });
  return { importId: imp._id, uploadPath: `/statements/upload/${token}` };
}

export class UploadRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Takes the bytes for an open import; the earlier import when the same bytes were imported before. */
export async function receive(
  deps: ReceiveDeps,
  imp: ImportDoc,
  body: Readable,
): Promise<{ imp: ImportDoc; duplicate: boolean }> {
  const { sha256, bytes } = await deps.spool.write(imp._id, body, MAX_STATEMENT_BYTES);
  if (bytes === 0) {
    await deps.spool.remove(imp._id);
    await deps.imports.refuse(imp._id, 'The file is empty.');
    throw new UploadRefused(400, 'The file is empty: choose the statement file again.');
  }
  const { duplicateOf } = await deps.imports.received(imp._id, sha256, bytes);
  if (duplicateOf) {
    await deps.spool.remove(imp._id);
    return { imp: duplicateOf, duplicate: true };
  }
  deps.runner.kick();
  const stored = await deps.imports.get(imp._id);
  return { imp: stored ?? imp, duplicate: false };
}

/** A file from the stores' report folder: read from its start, as an upload would be. */
export async function receiveFromInbox(
  deps: ReceiveDeps,
  input: { source: StatementSource; fileName: string; body: Readable },
) {
  const imp = await deps.imports.open({
    source: input.source,
    fileName: input.fileName,
    via: 'inbox',
    createdBy: 'inbox',
  });
  return receive(deps, imp, input.body);
}
