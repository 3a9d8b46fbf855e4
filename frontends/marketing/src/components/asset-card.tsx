import { Card, CardContent, CardHeader, CardTitle, formatPublished } from '@omni/ui';
import { Music, Video } from 'lucide-react';
import type { PublicAsset } from '../lib/public-assets';

/** The asset's player. preload="none": a grid of players must not start downloading every file. */
function Player({ asset, title }: { asset: PublicAsset; title: string }) {
  if (asset.kind === 'video') {
    return (
      // biome-ignore lint/a11y/useMediaCaption: contributors' videos come without caption tracks
      <video
        controls
        preload="none"
        src={asset.mediaUrl}
        aria-label={`Play ${title}`}
        data-testid="asset-player"
        className="aspect-video w-full rounded-md bg-black"
      />
    );
  }
  return (
    // biome-ignore lint/a11y/useMediaCaption: music has no caption track
    <audio
      controls
      preload="none"
      src={asset.mediaUrl}
      aria-label={`Play ${title}`}
      data-testid="asset-player"
      className="w-full"
    />
  );
}

export function AssetCard({ asset }: { asset: PublicAsset }) {
  const title = asset.title?.trim() ? asset.title : 'Untitled';
  const published = asset.publishedAt ? formatPublished(asset.publishedAt) : '';
  const Icon = asset.kind === 'video' ? Video : Music;
  return (
    <Card data-testid="asset-card" className="flex h-full flex-col">
      <CardHeader className="flex-row items-start gap-3 space-y-0">
        <span className="rounded-md bg-primary/10 p-2 text-primary">
          <Icon className="h-5 w-5" aria-hidden="true" />
        </span>
        <CardTitle className="min-w-0 break-words text-base leading-snug" data-testid="asset-title">
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col justify-between gap-4">
        <Player asset={asset} title={title} />
        {asset.description ? (
          <p className="text-sm text-muted-foreground" data-testid="asset-description">
            {asset.description}
          </p>
        ) : null}
        {published ? (
          <p className="text-xs text-muted-foreground">
            Published{' '}
            <time dateTime={asset.publishedAt ?? undefined} data-testid="asset-published">
              {published}
            </time>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
