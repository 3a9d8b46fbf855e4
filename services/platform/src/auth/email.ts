// One spelling of an email address everywhere it is compared: identity's lookups and stored users, and
// the gateway's per-address rate-limit keys (two services, so it lives in the kit).

/** Normalises an email the same way everywhere (lookup, storage, rate-limit keys). */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
