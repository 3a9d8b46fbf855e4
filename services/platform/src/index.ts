// @omni/platform: what every service uses. Services import from here only, never from an adapter or an
// infrastructure client directly.

// The embedded issuer's key: the identity service serves its JWKS and tests sign tokens with it.
export * from './adapters/identity-embedded/signing-keys';
export * from './auth/guards';
export * from './auth/tokens';
export * from './auth/verifier-for-config';
export * from './config/config';
export * from './config/services';
export * from './data-dir/modes';
export * from './events/consumer';
export * from './events/envelope';
export * from './events/outbox';
export * from './grpc/client';
export * from './grpc/errors';
export * from './grpc/reasons';
export * from './grpc/server';
export * from './http/app';
export * from './http/errors';
export * from './http/fast-path';
export * from './http/rate-limit';
export * from './http/rate-limit-shared';
export * from './http/validate';
export * from './logging/logger';
export * from './ports/documents';
export * from './ports/events';
export * from './ports/identity';
export * from './ports/mail';
export * from './ports/objects';
export * from './runtime/graph';
export * from './runtime/manager';
export * from './runtime/ports';
export * from './runtime/service';
export * from './telemetry/telemetry';
