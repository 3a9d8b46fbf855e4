// A refused submission's files (issue 21 §3.7): the artist upload and the console's song submission upload
// their files anew on every try, so the files of a try that catalog refused (a code in use, a bad field, a
// file refused for its role) would stay in storage for ever, listed in the console beside the next try's.
// They are removed, unless one of the owner's releases already uses them.
import { GrpcError, GrpcStatus, isServiceError } from '@omni/platform';
import type { FileChecker } from '../domain/file-rules';
import type { FileRefDoc } from '../domain/release';
import type { CatalogStore } from '../store/catalog-store';

/** The caller's mistakes: the files were brought for nothing. Outages and deadlines are not (a retry may use them). */
const REFUSALS: readonly number[] = [
  GrpcStatus.INVALID_ARGUMENT,
  GrpcStatus.ALREADY_EXISTS,
  GrpcStatus.FAILED_PRECONDITION,
];

export async function discardingRefusedFiles<T>(
  deps: { store: CatalogStore; files: FileChecker; onError?: (err: unknown) => void },
  ownerId: string,
  refs: readonly (FileRefDoc | null | undefined)[],
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // This service's own refusals are GrpcErrors; storage's (a file refused for its role) arrive as
    // ServiceErrors.
    const code = err instanceof GrpcError || isServiceError(err) ? err.code : undefined;
    if (code !== undefined && REFUSALS.includes(code)) {
      for (const ref of refs) {
        if (!ref?.bucket || !ref.fileKey) continue;
        try {
          if (!(await deps.store.fileInUse(ownerId, ref)))
            await deps.files.discard(ownerId, ref.bucket, ref.fileKey);
        } catch (cleanup) {
          // Someone else's or a missing file is "not found" there: nothing of the caller's to remove.
          if (!(isServiceError(cleanup) && cleanup.code === GrpcStatus.NOT_FOUND)) deps.onError?.(cleanup);
        }
      }
    }
    throw err;
  }
}
