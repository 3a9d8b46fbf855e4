// Proof of rights for a release the rights check holds: the file goes to the private `documents` bucket
// like any upload (sign, PUT, complete), then the note names it at POST /api/releases/:id/rights-proof.
import { RIGHTS_PROOF_MESSAGES, reviewSchema } from '@omni/proto/api';
import { apiFetch } from '@omni/ui';
import * as z from 'zod/mini';
import { uploadFile } from './upload';

const answerSchema = z.object({ review: z.nullable(reviewSchema), message: z.string() });

export async function sendRightsProof(releaseId: string, note: string, file: File) {
  const uploaded = await uploadFile({ file, bucket: 'documents', purpose: 'console' });
  const body = await apiFetch(`/api/releases/${encodeURIComponent(releaseId)}/rights-proof`, {
    method: 'POST',
    body: JSON.stringify({
      note,
      file: { bucket: uploaded.bucket, fileKey: uploaded.fileKey, fileName: file.name },
    }),
  });
  const answer = answerSchema.parse(body);
  return { proofs: answer.review?.proofs ?? [], message: answer.message || RIGHTS_PROOF_MESSAGES.sent };
}
