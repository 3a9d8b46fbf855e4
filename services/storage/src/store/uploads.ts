// Storage's record of every signed upload: who asked (the owner every later call is checked against), where
// to, how large it may be and why, then what the bytes turned out to be. The _id is "bucket/key", so a
// key is handed out once: two signings can never share (and overwrite) one object.
import type { Collection, DocumentStore } from '@omni/platform';
import type { BucketName, UploadPurposeName } from '../domain/buckets';
import type { Inspection } from '../domain/inspect';
import type { OwnerSubject } from '../domain/owner';
import type { Role } from '../domain/rules';

export interface UploadDoc {
  _id: string;
  bucket: BucketName;
  key: string;
  ownerId: string;
  /** Whose credential the PUT must carry (domain/owner.ts); absent on records signed before it existed. */
  ownerSubject?: OwnerSubject;
  purpose: UploadPurposeName;
  /** The sanitised name the person gave. */
  fileName: string;
  contentType: string;
  maxSize: number;
  signedAt: string;
  expiresAt: string;
  /** deleted: removed at a service's request (DeleteObject), e.g. a contributor file nothing refers to. */
  status: 'signed' | 'complete' | 'rejected' | 'deleted';
  deletedAt?: string;
  role?: Role;
  inspection?: Inspection;
  /** The object version (ETag) the inspection describes; another one is inspected again. */
  inspectedEtag?: string;
  problems?: string[];
  /** What some stores refuse about an accepted file (domain/store-rules.ts). */
  warnings?: string[];
  completedAt?: string;
  /** When catalog first asked about the file for a release (GetObjectInfo with a role): a release may use it. */
  claimedAt?: string;
  [field: string]: unknown;
}

export const uploadId = (bucket: string, key: string) => `${bucket}/${key}`;

/**
 * Whether an upload's bytes may still be replaced (an upsert, or a PUT through an upsert link): not once
 * completed. The contributor page completes a file only when it is submitted, so a complete file is one an
 * asset refers to (pending, published or rejected). No record: nothing to protect.
 */
export const replaceable = (doc: Pick<UploadDoc, 'status'> | null) => doc?.status !== 'complete';

export function uploadsCollection(store: DocumentStore): Collection<UploadDoc> {
  return store.collection<UploadDoc>('uploads', {
    indexes: [{ fields: { ownerId: 1, signedAt: -1 } }, { fields: { ownerId: 1, bucket: 1, signedAt: -1 } }],
  });
}
