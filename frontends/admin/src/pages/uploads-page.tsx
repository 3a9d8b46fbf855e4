import { CMS_MESSAGES, PAGE_TAKES } from '@omni/proto/api';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  contentTypeOf,
  Input,
  Label,
  Progress,
  putToSignedUrl,
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
  Textarea,
  toast,
  useDocumentTitle,
} from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { usePages } from '../hooks/use-pages';
import { createAdminUpload, signAdminUpload } from '../lib/cms-api';

type Kind = 'music' | 'video';
const ACCEPT: Record<Kind, string> = { music: 'audio/*', video: 'video/*' };
/** One toast for the form: each outcome replaces the one before (see the UI kit's toaster). */
const TOAST_ID = 'admin-upload';

/** /admin/uploads: 'Upload Assets' — sign, PUT with progress, then create the asset (published at once). */
export default function UploadsPage() {
  useDocumentTitle('Upload Assets');
  const pages = usePages();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<Kind>('music');
  const [pageSlug, setPageSlug] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const busy = percent !== null;
  // Only the pages that show the chosen type: music on Videos would be published and shown nowhere.
  const fitting = (pages.data ?? []).filter((page) => PAGE_TAKES[page.slug] === kind);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!file || !pageSlug || !title.trim()) {
      toast.error(CMS_MESSAGES.required, { id: TOAST_ID });
      return;
    }
    setPercent(0);
    try {
      const signed = await signAdminUpload({
        fileName: file.name,
        contentType: contentTypeOf(file),
        size: file.size,
      });
      await putToSignedUrl(signed, file, (progress) => setPercent(progress.percent));
      const { status } = await createAdminUpload({
        pageSlug,
        kind,
        source: 'file',
        fileKey: signed.fileKey,
        title: title.trim(),
        description: description.trim(),
      });
      toast.success(status === 'published' ? 'Asset published instantly!' : 'Asset submitted for review', {
        id: TOAST_ID,
      });
      setTitle('');
      setDescription('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      await queryClient.invalidateQueries({ queryKey: ['cms', 'assets'] });
    } catch (error) {
      // What the user typed stays, so they can fix the file or retry.
      toast.error(error instanceof Error && error.message ? error.message : 'Upload failed', {
        id: TOAST_ID,
      });
    } finally {
      setPercent(null);
    }
  }

  return (
    <div className="mx-auto max-w-2xl p-4 md:p-8">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold leading-none tracking-tight">Upload Assets</h1>
          <CardDescription>
            Music and video you upload here are published on their page at once.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} noValidate className="space-y-5" aria-busy={busy}>
            <div className="grid gap-5 sm:grid-cols-2">
              <div className="space-y-2">
                <Label htmlFor="upload-kind">Type</Label>
                <Select
                  value={kind}
                  onValueChange={(value) => {
                    setKind(value as Kind);
                    // The page chosen for the other type does not take this one.
                    if (PAGE_TAKES[pageSlug] !== value) setPageSlug('');
                    // A file picked for the other type would be refused by the server: pick again.
                    setFile(null);
                    if (fileInput.current) fileInput.current.value = '';
                  }}
                  disabled={busy}
                >
                  <SelectTrigger id="upload-kind">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="music">Music</SelectItem>
                    <SelectItem value="video">Video</SelectItem>
                  </SelectContent>
                </Select>
              </div>
              <div className="space-y-2">
                <Label htmlFor="upload-page">Page *</Label>
                <Select value={pageSlug} onValueChange={setPageSlug} disabled={busy} required>
                  <SelectTrigger id="upload-page" aria-required="true">
                    <SelectValue placeholder={pages.isPending ? 'Loading pages…' : 'Select a page'} />
                  </SelectTrigger>
                  <SelectContent>
                    {fitting.map((page) => (
                      <SelectItem key={page.id} value={page.slug}>
                        {page.title}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                {pages.isError ? (
                  <p className="text-sm text-destructive" role="alert">
                    {pages.error.message}
                  </p>
                ) : null}
              </div>
            </div>
            <div className="space-y-2">
              <Label htmlFor="upload-title">Title *</Label>
              <Input
                id="upload-title"
                value={title}
                onChange={(event) => setTitle(event.target.value)}
                required
                maxLength={200}
                disabled={busy}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="upload-description">Description</Label>
              <Textarea
                id="upload-description"
                value={description}
                onChange={(event) => setDescription(event.target.value)}
                maxLength={5000}
                rows={3}
                disabled={busy}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="upload-file">File *</Label>
              <Input
                id="upload-file"
                ref={fileInput}
                type="file"
                accept={ACCEPT[kind]}
                required
                disabled={busy}
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              />
              <p className="text-xs text-muted-foreground">
                {kind === 'music' ? 'An audio file (WAV, MP3, FLAC…).' : 'A video file (MP4, MOV, WebM…).'}
              </p>
            </div>
            {busy ? (
              <div className="space-y-1" role="status">
                <Progress value={percent} aria-label="Upload progress" />
                <p className="text-sm text-muted-foreground">Uploading… {percent}%</p>
              </div>
            ) : null}
            <Button type="submit" disabled={busy} className="w-full sm:w-auto">
              {busy ? 'Uploading…' : 'Upload'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
