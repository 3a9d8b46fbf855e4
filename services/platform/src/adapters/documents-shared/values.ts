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

/**
 * What would be read back from storage: a JSON round trip (drops undefined, Date → ISO string). A value
 * that is already plain JSON is returned as it is: the round trip would only copy it, and copying a
 * statement import's ledger pages (hundreds of megabytes of text) was a sixth of the import's time
 * (bench:royalties).
 */
export function toStorable<T>(value: T): T {
  if (isPlainJson(value)) return value;
  const text = JSON.stringify(value);
  if (text === undefined) throw new InvalidQueryError('value is not storable as JSON');
  return JSON.parse(text) as T;
}

/** True when a JSON round trip gives back an equal value: only strings, finite numbers, booleans, null,
 * arrays without holes and plain objects without undefined values. */
function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      if ('toJSON' in value) return false;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) return false;
        if (!isPlainJson((value as PlainObject)[key])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * Refuses what the production engine refuses in a stored value, so the embedded store fails the same way
 * in tests instead of the cluster failing later: a field name with a dot or a leading $ (MongoDB), and an
 * array directly inside an array (FerretDB: "nested arrays are not supported"; three cluster-only failures
 * of issue 26 came from it). `where` names the value in the message.
 */
export function assertEngineShape(value: unknown, where: string): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (Array.isArray(item))
        throw new InvalidQueryError(`${where} holds an array inside an array, which FerretDB does not store`);
      assertEngineShape(item, where);
    }
    return;
  }
  for (const key in value) {
    if (key.includes('.') || key.startsWith('$'))
      throw new InvalidQueryError(
        `${where} has the field name '${key}': a dot or a leading $ is refused by MongoDB`,
      );
    assertEngineShape((value as PlainObject)[key], `${where}.${key}`);
  }
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
