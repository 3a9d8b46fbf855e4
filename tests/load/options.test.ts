// The k6 scripts take their load shape from the environment; a typo there must stop the run before it
// starts rather than silently running a different test.
import { baseUrl, buildOptions, parseStages, scenarioFromEnv } from './lib/options.js';

const defaults = { vus: 5, duration: '30s' };

describe('k6 options from the environment', () => {
  it('runs constant VUs by default', () => {
    expect(scenarioFromEnv({}, defaults)).toEqual({ executor: 'constant-vus', vus: 5, duration: '30s' });
    expect(scenarioFromEnv({ VUS: '12', DURATION: '2m' }, defaults)).toEqual({
      executor: 'constant-vus',
      vus: 12,
      duration: '2m',
    });
  });

  it('ramps when STAGES is set', () => {
    expect(scenarioFromEnv({ STAGES: '30s:10, 1m:50,10s:0' }, defaults)).toEqual({
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '30s', target: 10 },
        { duration: '1m', target: 50 },
        { duration: '10s', target: 0 },
      ],
      gracefulRampDown: '10s',
    });
  });

  it('holds an arrival rate when RATE is set, even with STAGES', () => {
    const scenario = scenarioFromEnv({ RATE: '200', STAGES: '1m:10', VUS: '8' }, defaults);
    expect(scenario).toMatchObject({
      executor: 'constant-arrival-rate',
      rate: 200,
      preAllocatedVUs: 8,
      maxVUs: 32,
    });
    expect(scenarioFromEnv({ RATE: '50', MAX_VUS: '100' }, defaults)).toMatchObject({ maxVUs: 100 });
  });

  it('rejects malformed input', () => {
    expect(() => parseStages('30s')).toThrow(/duration:target/);
    expect(() => parseStages('30x:10')).toThrow(/k6 duration/);
    expect(() => parseStages('30s:-1')).toThrow(/whole number/);
    expect(() => scenarioFromEnv({ VUS: 'ten' }, defaults)).toThrow(/VUS/);
    expect(() => scenarioFromEnv({ RATE: '0' }, defaults)).toThrow(/RATE/);
    expect(() => scenarioFromEnv({ STAGES: ' , ' }, defaults)).toThrow(/no stage/);
    expect(() => baseUrl({ BASE_URL: 'omni.local' })).toThrow(/BASE_URL/);
  });

  it('normalises the base URL', () => {
    expect(baseUrl({})).toBe('http://localhost:8080');
    expect(baseUrl({ BASE_URL: 'https://omni.local/' })).toBe('https://omni.local');
  });

  it('puts the latency budget in the thresholds, overridable by P99_MS', () => {
    const options = buildOptions({}, { scenario: 'public_music', p99Ms: 25 });
    expect(Object.keys(options.scenarios)).toEqual(['public_music']);
    expect(options.thresholds.http_req_duration).toEqual(['p(99)<25']);
    expect(options.thresholds.http_req_failed).toEqual(['rate<0.01']);
    expect(buildOptions({ P99_MS: '40' }, { scenario: 's', p99Ms: 25 }).thresholds.http_req_duration).toEqual(
      ['p(99)<40'],
    );
  });
});
