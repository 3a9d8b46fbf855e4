// Runs the k6 scripts' code under jest with k6's modules replaced by recorders: k6 itself is not
// installable here, so this is what proves each script requests the right URLs, checks the right
// things and exports thresholds k6 will enforce.
type K6Response = { status: number; headers: Record<string, string> };
type Checks = Record<string, (r: K6Response) => boolean>;

const calls: { url: string }[] = [];
const checkResults: Record<string, boolean> = {};
let nextStatus = 200;

const respond = (url: string): K6Response => {
  calls.push({ url });
  return { status: nextStatus, headers: { 'Content-Type': 'application/json; charset=utf-8' } };
};

jest.mock(
  'k6',
  () => ({
    check: (res: K6Response, checks: Checks) => {
      for (const [name, fn] of Object.entries(checks)) checkResults[name] = fn(res);
      return true;
    },
    fail: (message: string) => {
      throw new Error(message);
    },
  }),
  { virtual: true },
);
jest.mock(
  'k6/http',
  () => ({
    __esModule: true,
    default: {
      get: (url: string) => respond(url),
      batch: (requests: [string, string][]) => requests.map(([, url]) => respond(url)),
    },
  }),
  { virtual: true },
);

type Script = { options: { thresholds: Record<string, string[]> }; default: () => void; setup?: () => void };

function load(path: string, env: Record<string, string>): Script {
  (globalThis as { __ENV?: Record<string, string> }).__ENV = env;
  let script: Script | undefined;
  jest.isolateModules(() => {
    script = require(path) as Script;
  });
  return script!;
}

beforeEach(() => {
  calls.length = 0;
  for (const key of Object.keys(checkResults)) delete checkResults[key];
  nextStatus = 200;
});

describe('public-music.js', () => {
  it('reads the public Music assets with a 25 ms p99 budget', () => {
    const script = load('./public-music.js', { BASE_URL: 'http://omni.local/' });
    expect(script.options.thresholds.http_req_duration).toEqual(['p(99)<25']);
    script.default();
    expect(calls).toEqual([{ url: 'http://omni.local/api/pages/music/assets' }]);
    expect(checkResults).toEqual({ 'status is 200': true, 'body is JSON': true });
  });

  it('refuses to start the load when the gateway does not answer 200', () => {
    const script = load('./public-music.js', {});
    nextStatus = 503;
    expect(() => script.setup!()).toThrow(/answered 503/);
  });
});

describe('healthz.js', () => {
  it('hits liveness and readiness and flags a failing one', () => {
    const script = load('./healthz.js', { BASE_URL: 'http://localhost:18080' });
    script.default();
    expect(calls.map((c) => c.url)).toEqual([
      'http://localhost:18080/healthz',
      'http://localhost:18080/readyz',
    ]);
    expect(checkResults).toEqual({ '/healthz is 200': true, '/readyz is 200': true });
    nextStatus = 500;
    script.default();
    expect(checkResults['/readyz is 200']).toBe(false);
  });
});
