import { ApiError, apiFetch } from '../src/lib/api';

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];

function mockFetch(respond: (...args: FetchArgs) => Promise<Response>) {
  const calls: FetchArgs[] = [];
  global.fetch = jest.fn(async (...args: FetchArgs) => {
    calls.push(args);
    return respond(...args);
  }) as typeof fetch;
  return calls;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('apiFetch', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('resolves to the parsed JSON body', async () => {
    mockFetch(async () => json(200, { page: { slug: 'music' }, assets: [] }));
    await expect(apiFetch('/api/pages/music/assets')).resolves.toEqual({
      page: { slug: 'music' },
      assets: [],
    });
  });

  it("rejects with the server's { error: { message } } as the error message and keeps the status", async () => {
    mockFetch(async () => json(404, { error: { message: 'Page not found' } }));
    const error = await apiFetch('/api/pages/nope/assets').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Page not found');
    expect((error as ApiError).status).toBe(404);
  });

  it('names the status when the error body has no message', async () => {
    mockFetch(
      async () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(apiFetch('/api/x')).rejects.toThrow('Request failed (502 Bad Gateway)');
  });

  it('ignores an empty error message and falls back to the status text', async () => {
    mockFetch(async () => json(500, { error: { message: '   ' } }));
    await expect(apiFetch('/api/x')).rejects.toThrow('Request failed (500');
  });

  it('turns a network failure into a readable ApiError with status 0', async () => {
    mockFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
    expect((error as ApiError).message).toMatch(/Could not reach the server/);
  });

  it('resolves to null for an empty 204 body', async () => {
    mockFetch(async () => new Response(null, { status: 204 }));
    await expect(apiFetch('/api/x', { method: 'DELETE' })).resolves.toBeNull();
  });

  it('sends JSON headers for a string body and keeps caller headers', async () => {
    const calls = mockFetch(async () => json(201, { ok: true }));
    await apiFetch('/api/x', { method: 'POST', body: '{"a":1}', headers: { 'x-trace': '1' } });
    const headers = new Headers(calls[0]?.[1]?.headers);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('x-trace')).toBe('1');
    expect(calls[0]?.[1]?.credentials).toBe('same-origin');
  });

  it('does not force a JSON content type on FormData uploads', async () => {
    const calls = mockFetch(async () => json(200, {}));
    await apiFetch('/api/upload', { method: 'POST', body: new FormData() });
    expect(new Headers(calls[0]?.[1]?.headers).has('content-type')).toBe(false);
  });
});
