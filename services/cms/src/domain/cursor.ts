// Opaque paging cursors: the sort value and id of the last item given, so the next page starts strictly
// after it whatever was inserted meanwhile (keyset paging; no skip over a growing list).
export interface Cursor {
  at: string;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

/** Undefined for an empty cursor; null for one that is not ours (the caller refuses it). */
export function decodeCursor(raw: string): Cursor | undefined | null {
  if (!raw) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2) {
      const [at, id] = value as unknown[];
      if (typeof at === 'string' && typeof id === 'string') return { at, id };
    }
  } catch {
    // falls through: not a cursor we made
  }
  return null;
}
