// The OMNI CMS REST API's request shapes (cms-design.md), with the spec's messages. One file, so it moves
// as one into the contracts package (@omni/proto/api) when that lands.
import { z } from 'zod';

const REQUIRED = 'Please fill all required fields';
const slug = z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(64);
const requiredText = (max: number) => z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(max);
const fileKey = z.string({ error: REQUIRED }).min(1, REQUIRED).max(1024);
const fileName = z
  .string({ error: 'The file needs a name.' })
  .trim()
  .min(1, 'The file needs a name.')
  .max(1024);
const contentType = z.string().trim().max(255).optional().default('application/octet-stream');
const size = z
  .number({ error: 'size must be the file size in bytes.' })
  .int('size must be a whole number of bytes.')
  .min(0, 'size must be the file size in bytes.')
  .max(Number.MAX_SAFE_INTEGER);
const cursor = z.string().max(512).optional().default('');

export const adminSignBody = z.object({ fileName, contentType, size }).strict();

export const adminUploadBody = z
  .object({
    pageSlug: slug,
    kind: z.enum(['music', 'video'], { error: 'Type must be music or video.' }),
    source: z.literal('file', { error: "source must be 'file'." }).optional().default('file'),
    fileKey,
    title: requiredText(200),
    description: z.string().max(5000).optional().default(''),
  })
  .strict();

export const assetsQuery = z
  .object({
    status: z.enum(['pending', 'published', 'rejected'], {
      error: 'status must be pending, published or rejected.',
    }),
    limit: z.coerce.number().int().min(1).max(100).optional().default(25),
    cursor,
  })
  .strict();

export const idParams = z.object({ id: z.string().min(1).max(100) });

export const rejectBody = z.object({
  reason: z
    .string({ error: 'Please give a reason for the rejection.' })
    .trim()
    .min(1, 'Please give a reason for the rejection.')
    .max(2000),
});

const wholeAtLeastOne = (name: string, max: number) =>
  z
    .number({ error: `${name} must be a whole number from 1 to ${max}.` })
    .int(`${name} must be a whole number from 1 to ${max}.`)
    .min(1, `${name} must be at least 1.`)
    .max(max, `${name} must be at most ${max}.`);

export const createLinkBody = z
  .object({
    pageSlug: z
      .string({ error: 'Choose a page for the link.' })
      .trim()
      .min(1, 'Choose a page for the link.')
      .max(64),
    maxUses: wholeAtLeastOne('Max Uses', 10_000).optional().default(1),
    expiresInHours: wholeAtLeastOne('Expires In', 8_760).optional().default(24),
    allowFile: z.boolean().optional().default(true),
    allowUrl: z.boolean().optional().default(true),
  })
  .strict();

export const linksQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(200).optional().default(50), cursor })
  .strict();

export const contributorSignBody = z
  .object({
    bucket: z.string({ error: 'Choose a bucket.' }).trim().min(1, 'Choose a bucket.').max(63),
    folder: z.string().max(300, 'The folder path is too long.').optional().default(''),
    fileName,
    contentType,
    size,
  })
  .strict();

export const contributorUploadBody = z
  .object({
    bucket: z.string({ error: 'Choose a bucket.' }).trim().min(1, 'Choose a bucket.').max(63),
    fileKey: z.string({ error: 'Choose a file to upload.' }).min(1, 'Choose a file to upload.').max(1024),
    title: z.string().max(200).optional().default(''),
    description: z.string().max(5000).optional().default(''),
  })
  .strict();

export const releaseBody = z
  .object({
    title: z
      .string({ error: 'Title and Artist required.' })
      .trim()
      .min(1, 'Title and Artist required.')
      .max(200),
    artist: z
      .string({ error: 'Title and Artist required.' })
      .trim()
      .min(1, 'Title and Artist required.')
      .max(200),
    code: z.string().trim().max(64).optional().default(''),
    fileKey: z.string({ error: 'Choose an audio file.' }).min(1, 'Choose an audio file.').max(1024),
  })
  .strict();

export const publicAssetsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).optional(),
    cursor: z.string().max(512).optional(),
  })
  .strict();
