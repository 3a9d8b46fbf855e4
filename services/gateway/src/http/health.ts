// GET /healthz on the gateway: alive, plus every service's gRPC health status, so one request tells an
// operator (and a newcomer after `npm start`) what is up. Liveness itself never depends on peers.
import { type PromiseClient, SERVICE_NAMES, type ServiceName } from '@omni/platform';
import { health } from '@omni/proto';
import type { Express } from 'express';

export function mountHealth(
  http: Express,
  clientFor: (service: ServiceName) => PromiseClient<typeof health.HealthService>,
): void {
  http.get('/healthz', async (_req, res) => {
    const entries = await Promise.all(
      SERVICE_NAMES.map(async (name) => {
        try {
          const { status } = await clientFor(name).check({ service: name }, { deadlineMs: 1000 });
          return [name, health.healthCheckResponse_ServingStatusToJSON(status)] as const;
        } catch {
          return [name, 'UNREACHABLE'] as const;
        }
      }),
    );
    const services = Object.fromEntries(entries);
    const allServing = entries.every(([, s]) => s === 'SERVING');
    res.set('Cache-Control', 'no-store').json({ status: allServing ? 'ok' : 'degraded', services });
  });
}
