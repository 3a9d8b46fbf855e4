// The buckets the spec names and what each accepts (enforced by sniffing bytes in the releases issue).
export const BUCKETS = {
  documents: 'any',
  artwork: 'image',
  audio: 'audio',
  video: 'video',
  contracts: 'pdf or word',
  thumbnails: 'image',
  presskits: 'any',
  'omni-assets': 'artist uploads',
  'cms-assets': 'music and video for public pages',
} as const;

export type BucketName = keyof typeof BUCKETS;
