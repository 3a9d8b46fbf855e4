// Streams a body to S3 holding at most one part in memory.
//
// minio-js's own putObject reads a body of unknown size into parts sized for a 5 TiB object (~500 MB each)
// and buffers a whole object below its part size, and it resumes stale multipart uploads it finds by
// listing them (which s3rver does not implement). So the adapter cuts parts itself:
//   body shorter than one part -> one PUT (with If-None-Match: * when not overwriting)
//   otherwise                  -> CreateMultipartUpload, UploadPart..., CompleteMultipartUpload
//                                 (the Complete carries If-None-Match: *, which is where S3 checks it)
// Any failure aborts the multipart upload, so a body that errors midway leaves no object and no parts.
import type { Readable } from 'node:stream';
import type { Client } from 'minio';
import { BodySizeMismatchError } from './errors';

const INITIAL_BUFFER_BYTES = 64 * 1024;

export interface StreamingPutRequest {
  bucket: string;
  key: string;
  body: Readable | Buffer;
  headers: Record<string, string>;
  /** Send If-None-Match: * so the server refuses to replace an existing object. */
  ifAbsent: boolean;
  expectedSize?: number;
  partSize: number;
}

export interface StreamingPutResult {
  etag: string;
  size: number;
}

export async function streamingPut(client: Client, req: StreamingPutRequest): Promise<StreamingPutResult> {
  if (Buffer.isBuffer(req.body)) {
    checkSize(req.expectedSize, req.body.length);
    return singlePut(client, req, req.body);
  }

  // One part-sized buffer, filled and sent over and over: a part upload finishes before the buffer is
  // refilled, so steady-state memory is one part whatever the object's size, and no garbage per part.
  // It starts small and doubles up to the part size, so a small object never costs a whole part.
  let part = Buffer.allocUnsafe(Math.min(req.partSize, INITIAL_BUFFER_BYTES));
  let filled = 0;
  let total = 0;
  let uploadId: string | undefined;
  const parts: { part: number; etag: string }[] = [];

  const sendPart = async (payload: Buffer) => {
    uploadId ??= await client.initiateNewMultipartUpload(req.bucket, req.key, { ...req.headers });
    const partNumber = parts.length + 1;
    const result = await client.uploadPart(
      {
        bucketName: req.bucket,
        objectName: req.key,
        uploadID: uploadId,
        partNumber,
        headers: { 'Content-Length': payload.length },
      },
      payload,
    );
    parts.push({ part: partNumber, etag: result.etag });
  };

  try {
    for await (const chunk of req.body) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      total += buf.length;
      let offset = 0;
      while (offset < buf.length) {
        if (filled === part.length && part.length < req.partSize) {
          const grown = Buffer.allocUnsafe(Math.min(req.partSize, part.length * 2));
          part.copy(grown, 0, 0, filled);
          part = grown;
        }
        const copied = buf.copy(part, filled, offset);
        filled += copied;
        offset += copied;
        // Awaiting here stops reading the body: backpressure while a part is in flight.
        if (filled === req.partSize) {
          await sendPart(part);
          filled = 0;
        }
      }
    }
    checkSize(req.expectedSize, total);
    if (uploadId === undefined) return await singlePut(client, req, part.subarray(0, filled));
    if (filled > 0) await sendPart(part.subarray(0, filled));
    const etag = await completeUpload(client, req, uploadId, parts);
    return { etag, size: total };
  } catch (err) {
    if (uploadId !== undefined) {
      await client.abortMultipartUpload(req.bucket, req.key, uploadId).catch(() => undefined);
    }
    throw err;
  }
}

function checkSize(expected: number | undefined, received: number): void {
  if (expected !== undefined && expected !== received) throw new BodySizeMismatchError(expected, received);
}

async function singlePut(
  client: Client,
  req: StreamingPutRequest,
  body: Buffer,
): Promise<StreamingPutResult> {
  const headers = { ...req.headers, ...(req.ifAbsent ? { 'If-None-Match': '*' } : {}) };
  const result = await client.putObject(req.bucket, req.key, body, body.length, headers);
  return { etag: result.etag, size: body.length };
}

// Our own CompleteMultipartUpload because minio-js's cannot carry the If-None-Match header.
async function completeUpload(
  client: Client,
  req: StreamingPutRequest,
  uploadId: string,
  parts: { part: number; etag: string }[],
): Promise<string> {
  const xml =
    '<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
    parts
      .map((p) => `<Part><PartNumber>${p.part}</PartNumber><ETag>${escapeXml(p.etag)}</ETag></Part>`)
      .join('') +
    '</CompleteMultipartUpload>';
  const res = await client.makeRequestAsync(
    {
      method: 'POST',
      bucketName: req.bucket,
      objectName: req.key,
      query: `uploadId=${encodeURIComponent(uploadId)}`,
      headers: req.ifAbsent ? { 'If-None-Match': '*' } : {},
    },
    Buffer.from(xml),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  // S3 may answer 200 and still put an error in the body when the completion fails late.
  const errorCode = /<Error>[\s\S]*?<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (errorCode) {
    const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? errorCode;
    throw Object.assign(new Error(message), { code: errorCode });
  }
  const etag = /<ETag>([^<]+)<\/ETag>/.exec(body)?.[1] ?? '';
  return etag.replace(/&quot;/g, '"').replace(/^"|"$/g, '');
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
