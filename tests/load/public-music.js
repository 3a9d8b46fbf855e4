// The public Music page's data: the hottest anonymous read in Omni (every visitor, cacheable).
// Budget: p99 under 25 ms at the gateway, under 1% errors.
//
//   k6 run tests/load/public-music.js
//   BASE_URL=http://omni.local RATE=200 DURATION=2m k6 run tests/load/public-music.js
import { check, fail } from 'k6';
import http from 'k6/http';
import { baseUrl, buildOptions } from './lib/options.js';

export const options = buildOptions(__ENV, { scenario: 'public_music', p99Ms: 25, vus: 20 });

const url = `${baseUrl(__ENV)}/api/pages/music/assets`;
const params = { headers: { Accept: 'application/json' }, tags: { name: 'GET /api/pages/music/assets' } };

// Fail fast (before any load) when the gateway is not there, instead of reporting 100% errors.
export function setup() {
  const res = http.get(url, params);
  if (res.status !== 200) {
    fail(`GET ${url} answered ${res.status}; is the gateway up and BASE_URL right?`);
  }
}

export default function () {
  const res = http.get(url, params);
  check(res, {
    'status is 200': (r) => r.status === 200,
    'body is JSON': (r) => (r.headers['Content-Type'] || '').includes('application/json'),
  });
}
