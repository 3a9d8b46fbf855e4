// Proof of rights (issue 27): the owner of a release the rights check holds answers with a note and a file.
//   POST /api/releases/:id/rights-proof                          → the owner, while held (else 409)
//   GET  /api/releases/:id/rights-proofs/:proofId/file           → the owner downloads their own file
//   GET  /api/admin/releases/:id/rights-proofs/:proofId/file     → an admin downloads it
// The bytes reach storage like every upload (signed PUT, then complete); here the file is judged by its
// first bytes and its size, and delivery, which owns the held state, keeps the answer with the review.
// Downloads stream through here (attachment, the sniffed type): the file never gets a public URL.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { badRequest, type Guards, notFound, parseBody, parseParams } from '@omni/platform';
import { RIGHTS_PROOF_MAX_BYTES, RIGHTS_PROOF_MESSAGES, rightsProofBody } from '@omni/proto/api';
import { Router as createRouter, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { DeliveryClient } from '../catalog/deliveries';
import { reviewJson } from '../catalog/delivery-json';
import { type CatalogClient, visibleRelease } from '../catalog/release-access';
import { attachmentHeader, SNIFF_BYTES, sniffRightsProof } from './rights-proof-file';
import { type StorageClient, signedLink } from './stored-object';

const fileParams = z.object({ id: z.string().min(1).max(100), proofId: z.string().uuid() }).strict();

/** The first bytes of a stored object. */
async function headOf(client: StorageClient, req: Request, bucket: string, fileKey: string) {
  const url = await signedLink(client, req, bucket, fileKey);
  const res = await fetch(url, { headers: { range: `bytes=0-${SNIFF_BYTES - 1}` } });
  if (!res.ok) throw notFound('No such file.');
  return new Uint8Array(await res.arrayBuffer()).slice(0, SNIFF_BYTES);
}

export function rightsProofRoutes(
  catalogClient: CatalogClient,
  deliveryClient: DeliveryClient,
  storageClient: StorageClient,
  guards: Guards,
): Router {
  const router = createRouter();

  router.post('/releases/:id/rights-proof', guards.requireUser, async (req, res) => {
    const release = await visibleRelease(catalogClient, req);
    const body = parseBody(rightsProofBody, req, { first: true });
    const userId = req.principal!.userId;
    // Only the caller's own completed upload: someone else's file answers as a missing one.
    const info = await storageClient.getObjectInfo({
      ownerId: userId,
      bucket: body.file.bucket,
      fileKey: body.file.fileKey,
      role: '',
    });
    if (!info.exists || !info.inspection) throw badRequest('Upload the file first, then send it.');
    const refuse = async (message: string) => {
      // A refused file is not kept: the artist sends another one.
      await storageClient
        .discardUpload({ ownerId: userId, bucket: body.file.bucket, fileKey: body.file.fileKey })
        .catch(() => undefined);
      return badRequest(message);
    };
    if (info.inspection.size > RIGHTS_PROOF_MAX_BYTES) throw await refuse(RIGHTS_PROOF_MESSAGES.tooLarge);
    const type = sniffRightsProof(await headOf(storageClient, req, body.file.bucket, body.file.fileKey));
    if (!type) throw await refuse(RIGHTS_PROOF_MESSAGES.wrongType);
    const { review } = await deliveryClient.submitRightsProof({
      releaseId: release.id,
      callerId: userId,
      proof: {
        id: crypto.randomUUID(),
        note: body.note,
        bucket: body.file.bucket,
        fileKey: body.file.fileKey,
        fileName: body.file.fileName,
        contentType: type,
        size: info.inspection.size,
        submittedAt: new Date().toISOString(),
        submittedBy: userId,
      },
    });
    res.status(201).json({
      review: review ? reviewJson(review) : null,
      message: RIGHTS_PROOF_MESSAGES.sent,
    });
  });

  const download = async (req: Request, res: Response) => {
    const { proofId } = parseParams(fileParams, req);
    const release = await visibleRelease(catalogClient, req);
    const { review } = await deliveryClient.listJobs({ releaseId: release.id });
    const proof = review?.proofs.find((p) => p.id === proofId);
    if (!proof) throw notFound('No such file.');
    const file = await fetch(await signedLink(storageClient, req, proof.bucket, proof.fileKey));
    if (!file.ok || !file.body) throw notFound('No such file.');
    res.set({
      'Content-Type': proof.contentType,
      'Content-Disposition': attachmentHeader(proof.fileName),
      'Content-Length': String(proof.size),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    Readable.fromWeb(file.body as WebReadableStream<Uint8Array>).pipe(res);
  };
  // The owner's route: catalog lets only the owner (or an admin) see the release.
  router.get('/releases/:id/rights-proofs/:proofId/file', guards.requireUser, download);
  router.get('/admin/releases/:id/rights-proofs/:proofId/file', guards.requireAdmin, download);
  return router;
}
