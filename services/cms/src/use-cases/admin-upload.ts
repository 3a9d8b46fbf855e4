// An admin's own upload through /admin/uploads: storage judges the bytes (music must be audio, video must
// be video), then the asset is published at once and announced (asset.approved) in one transaction.
import { invalidArgument, notFoundError } from '@omni/platform';
import { wrongPageMessage } from '@omni/proto/api';
import { type AssetDoc, CMS_BUCKET, PAGE_KIND, type PageDoc } from '../domain/asset';
import { type CmsContext, INSPECTION_DEADLINE_MS } from './context';

export interface AdminUpload {
  pageSlug: string;
  kind: 'music' | 'video';
  title: string;
  description: string;
  fileKey: string;
  adminId: string;
}

export async function publishAdminUpload(
  ctx: CmsContext,
  input: AdminUpload,
): Promise<{ asset: AssetDoc; page: PageDoc }> {
  const title = input.title.trim();
  if (!title || !input.fileKey || !input.pageSlug) throw invalidArgument('Please fill all required fields');
  const page = await ctx.pages.bySlug(input.pageSlug);
  if (!page) throw notFoundError(`There is no page called '${input.pageSlug}'.`);
  // A page shows one type (spec: Music shows music, Videos shows videos): anything else would be
  // published and shown nowhere. Refused before a byte is inspected.
  if (PAGE_KIND[page.slug] !== input.kind) throw invalidArgument(wrongPageMessage(page.title, input.kind));
  await ctx.storage.completeUpload(
    {
      ownerId: input.adminId,
      bucket: CMS_BUCKET,
      fileKey: input.fileKey,
      role: '',
      expectKind: input.kind === 'music' ? 'audio' : 'video',
    },
    { deadlineMs: INSPECTION_DEADLINE_MS },
  );
  const asset = await ctx.assets.transaction(async (scope) => {
    const created = await ctx.assets.create(
      {
        pageId: page._id,
        kind: input.kind,
        title: title.slice(0, 200),
        description: input.description.trim().slice(0, 5000),
        bucket: CMS_BUCKET,
        fileKey: input.fileKey,
        submittedBy: input.adminId,
      },
      'published',
      scope,
    );
    await ctx.outbox.add(scope, 'asset.approved', created._id, {
      assetId: created._id,
      pageId: page._id,
      pageSlug: page.slug,
      kind: created.kind,
      title: created.title,
      publishedAt: created.publishedAt!,
      approvedBy: input.adminId,
    });
    return created;
  });
  void ctx.outbox.flush().catch(() => undefined);
  return { asset, page };
}
