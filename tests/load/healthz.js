// Liveness and readiness under load: the cheapest requests the gateway serves, so this measures the
// HTTP stack and the ingress path themselves. A p99 over 10 ms here points at the platform, not at Omni.
//
//   k6 run tests/load/healthz.js
//   BASE_URL=http://omni.local STAGES=30s:50,1m:50,15s:0 k6 run tests/load/healthz.js
import { check } from 'k6';
import http from 'k6/http';
import { baseUrl, buildOptions } from './lib/options.js';

export const options = buildOptions(__ENV, { scenario: 'healthz', p99Ms: 10, vus: 10 });

const base = baseUrl(__ENV);

export default function () {
  const responses = http.batch([
    ['GET', `${base}/healthz`, null, { tags: { name: 'GET /healthz' } }],
    ['GET', `${base}/readyz`, null, { tags: { name: 'GET /readyz' } }],
  ]);
  check(responses[0], { '/healthz is 200': (r) => r.status === 200 });
  check(responses[1], { '/readyz is 200': (r) => r.status === 200 });
}
