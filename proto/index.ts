// The only contract between services: generated gRPC code (never edited by hand; `npm run proto:gen`)
// and the event schemas every producer and consumer share.

export * as events from './events';
export * as health from './gen/grpc/health/v1/health';
export * as billing from './gen/omni/billing/v1/billing';
export * as catalog from './gen/omni/catalog/v1/catalog';
export * as cms from './gen/omni/cms/v1/cms';
export * as delivery from './gen/omni/delivery/v1/delivery';
export * as finder from './gen/omni/finder/v1/finder';
export * as identity from './gen/omni/identity/v1/identity';
export * as royalties from './gen/omni/royalties/v1/royalties';
export * as storage from './gen/omni/storage/v1/storage';
