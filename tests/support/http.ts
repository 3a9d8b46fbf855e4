// fetch for tests that share one process with the platform they call. undici reuses a keep-alive socket and
// drops it a second before the server's 5 s keep-alive timeout; when the process's event loop is busy (the
// platform packaging and hashing in the same process, on a loaded 2-core machine) that second can pass
// unnoticed, and the request goes out on a socket the server has just closed: ECONNRESET before any answer.
// A browser retries exactly that case once on a fresh connection; so do these tests. Any other failure,
// and any answer at all, is returned as it came.
const STALE_SOCKET = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

export async function fetchOnce(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (!code || !STALE_SOCKET.has(code)) throw err;
    return fetch(url, init);
  }
}
