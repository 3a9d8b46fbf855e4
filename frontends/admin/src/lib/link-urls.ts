// A link's URL holds its token, which the server keeps only as a hash and returns once, when the link is
// created. This tab keeps the URLs it was given (sessionStorage, by link id) so their "copy" still works.
const KEY = 'omni.cms.linkUrls';

function read(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export const knownLinkUrl = (id: string): string | undefined => read()[id];

export function rememberLinkUrl(id: string, url: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...read(), [id]: url }));
  } catch {
    // storage full or disabled: the copy button of this row is simply disabled after a reload
  }
}
