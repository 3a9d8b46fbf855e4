// Value helpers shared by both document adapters. Stored documents are plain JSON: the SQLite store keeps
// them as JSON text, and the MongoDB adapter normalises writes the same way so that both adapters
// answer every query identically (a Date becomes its ISO string, which sorts and compares as a string).

export class InvalidQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidQueryError';
  }
}

export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON round trip: what would be read back from storage (drops undefined, Date → ISO string). */
export function toStorable<T>(value: T): T {
  const text = JSON.stringify(value);
  if (text === undefined) throw new InvalidQueryError('value is not storable as JSON');
  return JSON.parse(text) as T;
}

/** Deep equality with MongoDB's rules for documents: field order matters, as it does in BSON. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((key, i) => key === kb[i] && deepEqual(a[key], b[key]));
  }
  return false;
}

/** MongoDB's cross-type sort order (BSON comparison order), restricted to JSON types. Missing sorts as null. */
export function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'object') return 4;
  if (typeof value === 'boolean') return 8;
  return 10;
}

export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ea = Object.entries(a);
    const eb = Object.entries(b);
    for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
      const [ka, va] = ea[i]!;
      const [kb, vb] = eb[i]!;
      const c = compareValues(va, vb) || (ka < kb ? -1 : ka > kb ? 1 : 0);
      if (c !== 0) return c;
    }
    return ea.length - eb.length;
  }
  return 0;
}
