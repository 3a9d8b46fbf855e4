// The buckets the spec names, what each accepts (checked against the sniffed bytes, never the file name or
// the browser's content type), how large a file may be, and who may read it without a signed link.
export type ContentKind = 'audio' | 'image' | 'video' | 'pdf' | 'word' | 'executable' | 'other';

export interface BucketPolicy {
  /** What the setup checklist and the picker show. */
  accepts: string;
  /** Sniffed kinds allowed; undefined = anything. */
  kinds?: readonly ContentKind[];
  /** Purposes that may sign uploads into it. */
  purposes: readonly UploadPurposeName[];
  /**
   * Readable without a signature (a CDN-style public URL). Cover art and thumbnails are shown on public
   * pages and sent to stores, so they are public, as a distributor's artwork CDN is; audio masters,
   * contracts and private documents are only ever handed out as signed links.
   */
  public: boolean;
}

export type UploadPurposeName = 'console' | 'artist-upload' | 'song-submission' | 'contributor' | 'cms-admin';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** Size limits per kind of file (the releases contract). */
export const SIZE_LIMITS = {
  audio: 2 * GB,
  image: 50 * MB,
  video: 5 * GB,
  document: 200 * MB,
} as const;

const CONSOLE: readonly UploadPurposeName[] = ['console', 'contributor'];

export const BUCKETS = {
  documents: { accepts: 'any file', purposes: CONSOLE, public: false },
  artwork: { accepts: 'images', kinds: ['image'], purposes: CONSOLE, public: true },
  audio: { accepts: 'audio', kinds: ['audio'], purposes: [...CONSOLE, 'song-submission'], public: false },
  video: { accepts: 'video', kinds: ['video'], purposes: CONSOLE, public: false },
  contracts: { accepts: 'PDF or Word documents', kinds: ['pdf', 'word'], purposes: CONSOLE, public: false },
  thumbnails: { accepts: 'images', kinds: ['image'], purposes: CONSOLE, public: true },
  presskits: { accepts: 'any file', purposes: CONSOLE, public: true },
  'omni-assets': {
    accepts: 'audio and cover art (artist uploads)',
    kinds: ['audio', 'image'],
    purposes: ['artist-upload', 'song-submission'],
    public: false,
  },
  // OMNI CMS admins' uploads for the public Music and Videos pages (cms checks the kind it was uploaded as).
  'cms-assets': {
    accepts: 'music and video',
    kinds: ['audio', 'video'],
    purposes: ['cms-admin'],
    public: false,
  },
} as const satisfies Record<string, BucketPolicy>;

export type BucketName = keyof typeof BUCKETS;

/** How messages name a bucket: subject and verb included, so each reads as a sentence. */
export interface BucketWords {
  /** 'The "audio" bucket takes' */
  takes: string;
  /** 'The "audio" bucket does not hold' */
  doesNotHold: string;
  /** 'files in "audio"' */
  files: string;
  /** 'the "audio" bucket', after "to" */
  place: string;
  /** '"audio"', after "uploaded to" */
  to: string;
}

/**
 * The console's buckets go by their names, which the console shows (spec §8). The others are Omni's
 * internals (issue 21 §3.10: "cms-assets" reached admins): a person reads what they hold instead.
 */
const INTERNAL_WORDS: Partial<Record<BucketName, BucketWords>> = {
  'omni-assets': {
    takes: 'A release takes',
    doesNotHold: 'A release does not hold',
    files: "a release's files",
    place: 'a release',
    to: 'a release',
  },
  'cms-assets': {
    takes: 'The Music and Videos pages take',
    doesNotHold: 'The Music and Videos pages do not hold',
    files: 'files for the Music and Videos pages',
    place: 'the Music and Videos pages',
    to: 'the Music and Videos pages',
  },
};

export const bucketWords = (bucket: BucketName): BucketWords =>
  INTERNAL_WORDS[bucket] ?? {
    takes: `The "${bucket}" bucket takes`,
    doesNotHold: `The "${bucket}" bucket does not hold`,
    files: `files in "${bucket}"`,
    place: `the "${bucket}" bucket`,
    to: `"${bucket}"`,
  };

export const isBucketName = (name: string): name is BucketName => Object.hasOwn(BUCKETS, name);

export const policyOf = (bucket: BucketName): BucketPolicy => BUCKETS[bucket];

/** Buckets served without a signature; the objects adapter is configured with the same list. */
export const PUBLIC_BUCKETS = (Object.keys(BUCKETS) as BucketName[]).filter((b) => BUCKETS[b].public);

/** The kind a browser's content type claims: only used to refuse an obvious mismatch early and pick a limit. */
export function claimedKind(contentType: string): ContentKind | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'application/msword' || type.includes('wordprocessingml')) return 'word';
  return undefined;
}

/** The largest upload a bucket takes for a file claiming this type. */
export function sizeLimit(bucket: BucketName, contentType: string): number {
  const kind = claimedKind(contentType);
  switch (bucket) {
    case 'audio':
      return SIZE_LIMITS.audio;
    case 'video':
      return SIZE_LIMITS.video;
    case 'artwork':
    case 'thumbnails':
      return SIZE_LIMITS.image;
    case 'omni-assets':
      // Unknown type: the audio limit, since the bytes decide what it is; a non-audio, non-image file is refused at completion.
      return kind === 'image' ? SIZE_LIMITS.image : SIZE_LIMITS.audio;
    case 'cms-assets':
      return SIZE_LIMITS.video;
    default:
      return SIZE_LIMITS.document;
  }
}

export function describeSize(bytes: number): string {
  if (bytes >= GB) return `${+(bytes / GB).toFixed(1)} GB`;
  if (bytes >= MB) return `${+(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
