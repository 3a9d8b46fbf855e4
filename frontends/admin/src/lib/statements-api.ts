// Statement imports as the admin screen calls them (/api/admin/statements, proto/api/royalties.ts): the
// upload (XMLHttpRequest, for its progress), one import polled while it runs, the list, the unmatched queue
// and its two decisions, and the store simulator's "send this month's reports". Every answer is parsed with
// the contract's schema.
import {
  type ResolveUnmatchedBody,
  resolveUnmatchedBody,
  type StatementSource,
  statementAccepted,
  statementImport,
  statementList,
  unmatchedList,
} from '@omni/proto/api';
import { ApiError, apiFetch, type ByteProgress } from '@omni/ui';
import { getSessionStore } from '@omni/ui/session';
import * as z from 'zod/mini';

const BASE = '/api/admin/statements';

export const fetchStatements = async () => statementList.parse(await apiFetch(BASE)).imports;

export const fetchStatement = async (id: string) =>
  statementImport.parse(await apiFetch(`${BASE}/${encodeURIComponent(id)}`));

export const fetchUnmatched = async () => unmatchedList.parse(await apiFetch(`${BASE}/unmatched`));

export async function resolveUnmatched(body: ResolveUnmatchedBody): Promise<void> {
  await apiFetch(`${BASE}/unmatched/resolve`, {
    method: 'POST',
    body: JSON.stringify(resolveUnmatchedBody.parse(body)),
  });
}

const storeReportsState = z.object({ available: z.boolean() });
const storeReportsSent = z.object({ files: z.number() });

/**
 * Whether the store simulator runs here (it does under `npm start`): 200 `{available: true}`. Anything
 * else — 404 or 403 where there is no simulator, a network failure — means the button is not shown.
 */
export async function storeReportsAvailable(): Promise<boolean> {
  try {
    return storeReportsState.parse(await apiFetch(`${BASE}/store-reports`)).available;
  } catch {
    return false;
  }
}

/** Asks the simulated stores for this month's reports; they arrive in the inbox. Resolves to the file count. */
export const askStoreReports = async () =>
  storeReportsSent.parse(await apiFetch(`${BASE}/store-reports`, { method: 'POST' })).files;

export type StatementAccepted = z.infer<typeof statementAccepted>;

/** An upload in flight: its answer, and a way to stop sending. */
export interface StatementUpload {
  done: Promise<StatementAccepted>;
  cancel: () => void;
}

function errorOf(xhr: XMLHttpRequest): ApiError {
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { message?: unknown } };
    const message = body.error?.message;
    if (typeof message === 'string' && message.trim() !== '') return new ApiError(message, xhr.status);
  } catch {
    // not JSON: a generic text below
  }
  return new ApiError(
    xhr.status >= 500 || xhr.status === 0
      ? 'The statement could not be imported. Try again in a moment.'
      : `The statement was refused (${xhr.status}).`,
    xhr.status,
  );
}

/**
 * POSTs the file's bytes as they are (a .gz stays compressed) with its name in X-File-Name. XMLHttpRequest
 * rather than fetch() because only XHR reports upload progress, and these files run to hundreds of MB.
 * The name is percent-encoded (encodeURIComponent): a header carries Latin-1 only, and a store's file name
 * may not be. 202 is a new import, 200 with `duplicate: true` the earlier import of the same file.
 */
export function uploadStatement(
  file: File,
  source: StatementSource,
  onProgress: (progress: ByteProgress) => void,
): StatementUpload {
  const xhr = new XMLHttpRequest();
  let cancelled = false;
  const done = (async () => {
    const token = await getSessionStore()
      .getAccessToken()
      .catch(() => null);
    return new Promise<StatementAccepted>((resolve, reject) => {
      if (cancelled) {
        reject(new ApiError('Upload cancelled', 0));
        return;
      }
      xhr.open('POST', `${BASE}?${new URLSearchParams({ source })}`);
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.setRequestHeader('X-File-Name', encodeURIComponent(file.name));
      xhr.setRequestHeader('Accept', 'application/json');
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.upload.onprogress = (event) => {
        const total = event.lengthComputable ? event.total : file.size;
        onProgress({
          loaded: event.loaded,
          total,
          percent: total > 0 ? Math.floor((event.loaded / total) * 100) : 0,
        });
      };
      xhr.onload = () => {
        if (xhr.status < 200 || xhr.status >= 300) {
          reject(errorOf(xhr));
          return;
        }
        try {
          resolve(statementAccepted.parse(JSON.parse(xhr.responseText)));
        } catch {
          reject(new ApiError('The server answered in a way this page does not understand.', xhr.status));
        }
      };
      xhr.onerror = () =>
        reject(new ApiError('Could not reach the server. Check your connection and try again.', 0));
      xhr.onabort = () => reject(new ApiError('Upload cancelled', 0));
      xhr.send(file);
    });
  })();
  return {
    done,
    cancel: () => {
      cancelled = true;
      xhr.abort();
    },
  };
}
