import type { CmsAsset } from '@omni/proto/api';
import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  Spinner,
} from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { Eye, Play } from 'lucide-react';
import { useState } from 'react';
import { fetchMediaLink } from '../lib/cms-api';

/** Play or view an asset before deciding on it; the signed URL is asked for only when the dialog opens. */
export function MediaPreviewDialog({ asset }: { asset: CmsAsset }) {
  const [open, setOpen] = useState(false);
  const title = asset.title || 'Untitled';
  const playable = asset.kind === 'music' || asset.kind === 'video';
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${playable ? 'Play' : 'View'} ${title}`}>
          {playable ? <Play aria-hidden="true" /> : <Eye aria-hidden="true" />}
          <span className="hidden lg:inline">{playable ? 'Play' : 'View'}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-[calc(100vw-2rem)] rounded-lg sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {asset.pageTitle || asset.pageSlug}
            {asset.artist ? ` · ${asset.artist}` : ''}
            {asset.code ? ` · ${asset.code}` : ''}
          </DialogDescription>
        </DialogHeader>
        {open ? <MediaBody asset={asset} title={title} /> : null}
        {asset.description ? <p className="text-sm text-muted-foreground">{asset.description}</p> : null}
      </DialogContent>
    </Dialog>
  );
}

function MediaBody({ asset, title }: { asset: CmsAsset; title: string }) {
  // Signed URLs are short-lived: never reuse one from an earlier opening.
  const media = useQuery({
    queryKey: ['cms', 'media', asset.id],
    queryFn: () => fetchMediaLink(asset.id),
    staleTime: 0,
    gcTime: 0,
  });
  if (media.isPending) return <Spinner aria-label="Loading media" />;
  if (media.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {media.error.message}
      </p>
    );
  }
  const src = media.data;
  switch (asset.kind) {
    case 'music':
      // biome-ignore lint/a11y/useMediaCaption: an uploaded song under review has no caption track.
      return <audio controls preload="metadata" src={src} className="w-full" aria-label={title} />;
    case 'video':
      return (
        // biome-ignore lint/a11y/useMediaCaption: an uploaded video under review has no caption track.
        <video
          controls
          preload="metadata"
          src={src}
          className="max-h-[60vh] w-full rounded bg-black"
          aria-label={title}
        />
      );
    case 'image':
      return <img src={src} alt={title} className="max-h-[60vh] w-full rounded object-contain" />;
    default:
      return (
        <a href={src} target="_blank" rel="noreferrer" className="text-sm font-medium text-primary underline">
          Open the document in a new tab
        </a>
      );
  }
}
