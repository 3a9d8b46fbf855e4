// Object keys per spec §3 storage paths, from names a person typed: sanitised so that no name can climb out
// of its folder, hide itself, or break a URL, and so that whitespace becomes '_' as the spec says.
//   console, artist-upload: {userId}/{uuid}_{name}       (console with a subfolder: {userId}/{yyyymmdd}/{folder}/{uuid}_{name})
//   song-submission:        {userId}/{yyyymmdd}/{title_with_underscores}-{name}
//   contributor:            {userId or anon}/{yyyymmdd}/{folder}/{name}
//   cms-admin:              {userId}/{uuid}_{name}   (bucket cms-assets)
import { randomUUID } from 'node:crypto';
import type { UploadPurposeName } from './buckets';

/** Keeps a segment well inside the object store's 250-byte segment limit once a uuid or suffix is added. */
const MAX_NAME_BYTES = 120;
const MAX_FOLDER_DEPTH = 4;

/**
 * One path segment: the last component of whatever was given (a Windows or POSIX path), control and
 * URL-hostile characters dropped, whitespace runs as '_', no leading dots ('..', '.htaccess'), bounded length
 * with the extension kept.
 */
export function sanitiseSegment(raw: string, fallback = 'file'): string {
  const base = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  let name = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[<>:"|?*#%&{}^~`[\]]/g, '')
    .replace(/\s+/g, '_')
    .replace(/^[.\s_-]+/, '')
    .replace(/\.+$/, '');
  if (!name) name = fallback;
  return truncateKeepingExtension(name, MAX_NAME_BYTES);
}

function truncateKeepingExtension(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  let stem = name.slice(0, name.length - ext.length);
  while (Buffer.byteLength(stem + ext) > maxBytes) stem = [...stem].slice(0, -1).join('');
  return stem + ext;
}

/** A typed subfolder ('mixes/final v2', '../../etc') as safe segments; '.', '..' and empty parts vanish. */
export function sanitiseFolder(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(/[\\/]+/)
    .map((part) => part.trim())
    .filter((part) => part && part !== '.' && part !== '..')
    .map((part) => sanitiseSegment(part, 'folder'))
    .slice(0, MAX_FOLDER_DEPTH);
}

export function yyyymmdd(date: Date): string {
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}

export interface KeyInput {
  purpose: UploadPurposeName;
  ownerId: string;
  /** The first segment when it is not ownerId (a contributor without a session: 'anon'). */
  pathOwner?: string;
  fileName: string;
  folder?: string;
  title?: string;
  now: Date;
}

/** The key for an upload. Callers retry with `attempt` > 0 when the key is taken (keys never overwrite). */
export function buildKey(input: KeyInput, attempt = 0): string {
  const owner = sanitiseSegment(input.pathOwner || input.ownerId, 'anon');
  const name = withSuffix(sanitiseSegment(input.fileName), attempt);
  const day = yyyymmdd(input.now);
  const folder = sanitiseFolder(input.folder);
  switch (input.purpose) {
    case 'song-submission': {
      const title = sanitiseSegment(input.title ?? '', 'untitled');
      return [owner, day, truncateKeepingExtension(`${title}-${name}`, MAX_NAME_BYTES * 2)].join('/');
    }
    case 'contributor':
      return [owner, day, ...folder, name].join('/');
    default: {
      const unique = `${randomUUID()}_${name}`;
      return folder.length ? [owner, day, ...folder, unique].join('/') : [owner, unique].join('/');
    }
  }
}

/** 'take.wav' → 'take-2.wav' on the second attempt. */
function withSuffix(name: string, attempt: number): string {
  if (attempt === 0) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${attempt + 1}${name.slice(dot)}` : `${name}-${attempt + 1}`;
}
