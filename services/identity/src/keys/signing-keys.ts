// The embedded issuer's signing key lives with the embedded identity adapter in the platform (which signs
// tokens with it); this path stays so tests and tools that sign tokens for the embedded issuer keep working.
export { activeSigningKey, privateKeyOf, publicJwks, SIGNING_KEYS, type SigningKeyDoc } from '@omni/platform';
