// Builds k6 `options` from environment variables, so one script serves a smoke run, a soak and a
// ramp without edits. Kept free of k6 imports so it can be unit-tested under Node (options.test.ts).
//
//   BASE_URL   where the gateway is                          default http://localhost:8080
//   VUS        virtual users for a constant-VUs run          default per script
//   DURATION   length of a constant-VUs or constant-rate run default 30s
//   STAGES     ramp, "30s:10,1m:50,30s:0" (duration:target)  switches to ramping-vus
//   RATE       iterations per second                         switches to constant-arrival-rate
//   MAX_VUS    VU ceiling for RATE runs                      default 4 x VUS
//   P99_MS     override the script's p99 latency threshold in milliseconds

const DURATION_PATTERN = /^\d+(\.\d+)?(ms|s|m|h)$/;

function positiveInt(name, text) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${name} must be a positive integer, got "${text}"`);
  }
  return value;
}

function duration(name, text) {
  if (!DURATION_PATTERN.test(text)) {
    throw new Error(`${name} must be a k6 duration such as 30s or 2m, got "${text}"`);
  }
  return text;
}

/** "30s:10,1m:50,30s:0" -> [{ duration: '30s', target: 10 }, ...] */
export function parseStages(text) {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [time, target, ...rest] = part.split(':');
      if (rest.length > 0 || target === undefined) {
        throw new Error(`STAGES entry "${part}" must be duration:target`);
      }
      const vus = Number(target);
      if (!Number.isInteger(vus) || vus < 0) {
        throw new Error(`STAGES entry "${part}" has a target that is not a whole number`);
      }
      return { duration: duration('STAGES', time), target: vus };
    });
}

export function baseUrl(env) {
  const url = env.BASE_URL || 'http://localhost:8080';
  if (!/^https?:\/\/[^/]+/.test(url)) {
    throw new Error(`BASE_URL must be an http(s) URL, got "${url}"`);
  }
  return url.replace(/\/+$/, '');
}

/** The one scenario a run uses, chosen by which variables are set (RATE wins over STAGES over VUS). */
export function scenarioFromEnv(env, defaults) {
  const vus = env.VUS ? positiveInt('VUS', env.VUS) : defaults.vus;
  const length = duration('DURATION', env.DURATION || defaults.duration);
  if (env.RATE) {
    return {
      executor: 'constant-arrival-rate',
      rate: positiveInt('RATE', env.RATE),
      timeUnit: '1s',
      duration: length,
      preAllocatedVUs: vus,
      maxVUs: env.MAX_VUS ? positiveInt('MAX_VUS', env.MAX_VUS) : vus * 4,
    };
  }
  if (env.STAGES) {
    const stages = parseStages(env.STAGES);
    if (stages.length === 0) throw new Error('STAGES is set but holds no stage');
    return { executor: 'ramping-vus', startVUs: 0, stages, gracefulRampDown: '10s' };
  }
  return { executor: 'constant-vus', vus, duration: length };
}

/**
 * Full k6 options: one named scenario and thresholds that fail the run (k6 exits non-zero) when the
 * latency budget or the error budget is exceeded.
 */
export function buildOptions(
  env,
  { scenario, p99Ms, vus = 10, duration: length = '30s', maxErrorRate = 0.01 },
) {
  const budget = env.P99_MS ? positiveInt('P99_MS', env.P99_MS) : p99Ms;
  return {
    scenarios: { [scenario]: scenarioFromEnv(env, { vus, duration: length }) },
    thresholds: {
      http_req_duration: [`p(99)<${budget}`],
      http_req_failed: [`rate<${maxErrorRate}`],
      checks: [`rate>${1 - maxErrorRate}`],
    },
    summaryTrendStats: ['min', 'med', 'avg', 'p(90)', 'p(95)', 'p(99)', 'max'],
    // Each request is one HTTP call to the gateway; keep-alive like a browser or a CDN would.
    noConnectionReuse: false,
  };
}
