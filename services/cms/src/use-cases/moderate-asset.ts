// A moderator's decision on a pending asset: the new status and its event (asset.approved or
// asset.rejected) are written in one transaction through the outbox, then relayed at once (the outbox's
// sweep covers a failure). Null when the asset was no longer pending, so the caller can say what it is.
import type { Outbox } from '@omni/platform';
import type { AssetDoc, PageDoc } from '../domain/asset';
import type { AssetsRepository } from '../store/assets';

export interface Moderation {
  assets: AssetsRepository;
  outbox: Outbox;
}

export async function approveAsset(
  { assets, outbox }: Moderation,
  asset: AssetDoc,
  page: PageDoc | null,
  actorId: string,
): Promise<AssetDoc | null> {
  const published = await assets.transaction(async (scope) => {
    const updated = await assets.publish(scope, asset._id);
    if (!updated) return null;
    await outbox.add(scope, 'asset.approved', updated._id, {
      assetId: updated._id,
      pageId: updated.pageId,
      pageSlug: page?.slug ?? '',
      kind: updated.kind,
      title: updated.title,
      publishedAt: updated.publishedAt!,
      approvedBy: actorId || undefined,
    });
    return updated;
  });
  if (published) void outbox.flush().catch(() => undefined);
  return published;
}

export async function rejectAsset(
  { assets, outbox }: Moderation,
  asset: AssetDoc,
  reason: string,
  actorId: string,
): Promise<AssetDoc | null> {
  const rejected = await assets.transaction(async (scope) => {
    const updated = await assets.reject(scope, asset._id, reason);
    if (!updated) return null;
    await outbox.add(scope, 'asset.rejected', updated._id, {
      assetId: updated._id,
      reason: updated.metadata.rejection_reason!,
      rejectedBy: actorId || undefined,
    });
    return updated;
  });
  if (rejected) void outbox.flush().catch(() => undefined);
  return rejected;
}
