// The seven buckets of the /uploader console and contributor page (spec section 3), with what the
// file picker offers for each. The server sniffs the bytes anyway; `accept` only spares the user a
// refused upload.

export const CONSOLE_BUCKETS = [
  'documents',
  'artwork',
  'audio',
  'video',
  'contracts',
  'thumbnails',
  'presskits',
] as const;
export type ConsoleBucket = (typeof CONSOLE_BUCKETS)[number];

const WORD_AND_PDF = [
  '.pdf',
  '.doc',
  '.docx',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
].join(',');

/** The picker's `accept` per bucket; undefined = any file (documents, presskits). */
export const BUCKET_ACCEPT: Record<ConsoleBucket, string | undefined> = {
  documents: undefined,
  artwork: 'image/*',
  audio: 'audio/*',
  video: 'video/*',
  contracts: WORD_AND_PDF,
  thumbnails: 'image/*',
  presskits: undefined,
};

export const BUCKET_DESCRIPTION: Record<ConsoleBucket, string> = {
  documents: 'Any file',
  artwork: 'Images',
  audio: 'Audio',
  video: 'Video',
  contracts: 'PDF or Word',
  thumbnails: 'Images',
  presskits: 'Any file',
};

/** Whether a dropped file fits the bucket, judged by its declared type and name (the server re-checks). */
export function fitsBucket(bucket: ConsoleBucket, file: File): boolean {
  const accept = BUCKET_ACCEPT[bucket];
  if (!accept) return true;
  const name = file.name.toLowerCase();
  return accept.split(',').some((rule) => {
    if (rule.startsWith('.')) return name.endsWith(rule);
    if (rule.endsWith('/*')) return file.type.startsWith(rule.slice(0, -1));
    return file.type === rule;
  });
}
