// Every component the one binary can run and its default ports in all-in-one mode. What each calls (and
// so the start order) is in its own declaration (services/<name>/src/index.ts; runtime/graph.ts).
export const SERVICE_NAMES = [
  'identity',
  'catalog',
  'storage',
  'delivery',
  'billing',
  'cms',
  'finder',
  'royalties',
  'gateway',
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Ports used when several services share one machine (all-in-one); a lone service uses HTTP_PORT/GRPC_PORT. */
export const DEFAULT_PORTS: Record<ServiceName, { http: number; grpc: number }> = {
  gateway: { http: 8080, grpc: 50050 },
  identity: { http: 9101, grpc: 50051 },
  catalog: { http: 9102, grpc: 50052 },
  storage: { http: 9103, grpc: 50053 },
  delivery: { http: 9104, grpc: 50054 },
  billing: { http: 9105, grpc: 50055 },
  cms: { http: 9106, grpc: 50056 },
  finder: { http: 9107, grpc: 50057 },
  royalties: { http: 9108, grpc: 50058 },
};

export function isServiceName(value: string): value is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(value);
}
