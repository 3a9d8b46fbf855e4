// Playing an asset: a short-lived signed GET from storage (which serves Range requests), for published
// assets to anyone and any asset to an admin. Anything else is "not found", never a hint it exists.
import { notFoundError } from '@omni/platform';
import { CMS_BUCKET } from '../domain/asset';
import type { CmsContext } from './context';

const MEDIA_LINK_SECONDS = 10 * 60;

export async function assetMediaUrl(ctx: CmsContext, assetId: string, anyStatus: boolean): Promise<string> {
  const asset = assetId ? await ctx.assets.byId(assetId) : null;
  if (!asset || (!anyStatus && asset.status !== 'published') || !asset.fileKey)
    throw notFoundError('That asset does not exist.');
  const { url } = await ctx.storage.signDownload({
    bucket: asset.bucket ?? CMS_BUCKET,
    fileKey: asset.fileKey,
    expiresInSeconds: MEDIA_LINK_SECONDS,
  });
  return url;
}
