// Secrets the embedded issuer hands out (refresh tokens) are random and stored only as their SHA-256, so
// a copy of the data folder does not sign anyone in. Lookup is by the hash, which leaks nothing by timing.
import { createHash, randomBytes } from 'node:crypto';

/** 256 bits, URL-safe. */
export const randomToken = () => randomBytes(32).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
