// A signed-in download: a link cannot carry the session's bearer, so the file is fetched and handed to the
// browser as a download under the given name (proofs of rights on the artist's and the admin's pages).
import { apiResponse } from './api';

export async function saveDownload(path: string, fileName: string): Promise<void> {
  const res = await apiResponse(path);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
