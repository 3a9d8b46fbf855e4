// Errors the local object store raises beyond the port's own. The HTTP router maps each to a 4xx with a
// message a person can act on; callers of the store see a named class they can test for.

/** A bucket name outside the S3 naming rules (3-63 chars of a-z, 0-9, '.', '-'). */
export class InvalidBucketNameError extends Error {
  constructor(readonly bucket: string) {
    super(`"${bucket}" is not a valid bucket name: use 3 to 63 lowercase letters, digits, dots and hyphens`);
    this.name = 'InvalidBucketNameError';
  }
}

/** A key that could escape its bucket or cannot be stored as a path (.., NUL, backslash, empty segment...). */
export class InvalidObjectKeyError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`Invalid object key: ${reason}`);
    this.name = 'InvalidObjectKeyError';
  }
}

/** The body went past the byte limit an upload link allows; nothing was stored. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxSize: number) {
    super(`object is larger than the allowed ${maxSize} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

/** The body ended with a different length than the caller declared; nothing was stored. */
export class ObjectSizeMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`object body was ${received} bytes, but ${expected} were declared`);
    this.name = 'ObjectSizeMismatchError';
  }
}

/** A read range that starts past the end of the object. */
export class InvalidRangeError extends Error {
  constructor(
    readonly start: number,
    readonly size: number,
  ) {
    super(`range starting at byte ${start} is outside an object of ${size} bytes`);
    this.name = 'InvalidRangeError';
  }
}
