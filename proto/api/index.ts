// The REST contract of /api: request and response schemas, the error body, and the constants both the
// gateway and the web app need. Written with zod's mini build so a frontend bundle that imports it stays
// small; import it as '@omni/proto/api' (never the package root, which brings gRPC).
export * from './auth';
export * from './billing';
export * from './cms';
export * from './delivery';
export * from './error';
export * from './finder';
export * from './messages';
export * from './payouts';
export * from './platforms';
export * from './release-constants';
export * from './release-files';
export * from './release-rules';
export * from './releases';
export * from './responses';
export * from './royalties';
export * from './splits';
