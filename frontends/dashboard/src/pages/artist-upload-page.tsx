import { preOrderProblem, RELEASE_MESSAGES } from '@omni/proto/api';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Progress,
  Spinner,
  toast,
  useDocumentTitle,
  useSession,
} from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { Loader2, ShieldAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PlatformPicker } from '../components/artist-upload/platform-picker';
import { type ReleaseFiles, ReleaseTabs } from '../components/artist-upload/release-tabs';
import { TrackList } from '../components/artist-upload/track-list';
import { UploadLog } from '../components/artist-upload/upload-log';
import { PageFrame } from '../components/page-frame';
import {
  newTrack,
  type TrackDraft,
  tracksProblem,
  tracksRequest,
  type UploadState,
  uploadMasters,
} from '../lib/album-upload';
import { type ArtistFormValues, emptyArtistForm, toCreateReleaseRequest } from '../lib/artist-form';
import {
  ARTIST_UPLOAD_BUCKET,
  checkArtistUpload,
  formatBytes,
  runArtistUpload,
} from '../lib/artist-upload-flow';
import { errorMessage } from '../lib/error-message';
import { checkCoverArt, checkMasterAudio, readAudioSeconds } from '../lib/file-facts';
import { createRelease, fetchPlatforms } from '../lib/releases-api';
import { type ByteProgress, discardUpload, uploadFile } from '../lib/upload';

/** Spec section 9: the pause between 'Upload Successful!' and the next screen. */
const REDIRECT_AFTER_UPLOAD_MS = 2000;
/** The form's toasts replace one another: 'Upload Successful!' replaces the problems before it. */
const FORM_TOAST = 'artist-upload-form';

const platformsQuery = { queryKey: ['platforms'], queryFn: fetchPlatforms, staleTime: 10 * 60_000 };

function AuthenticationRequired() {
  return (
    <Card className="border-amber-500/50 bg-amber-50 dark:bg-amber-950/20" role="alert">
      <CardHeader className="flex flex-row items-start gap-3 space-y-0">
        <ShieldAlert className="mt-0.5 h-5 w-5 text-amber-600" aria-hidden="true" />
        <div className="space-y-1.5">
          <CardTitle>Authentication Required</CardTitle>
          <CardDescription>Please sign in to upload music to the platform.</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <Button asChild size="sm">
          <Link to="/login">Sign In</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

export default function ArtistUploadPage() {
  useDocumentTitle('Artist Upload');
  const navigate = useNavigate();
  const { status } = useSession();
  const platforms = useQuery(platformsQuery);

  const [values, setValues] = useState<ArtistFormValues>(emptyArtistForm);
  const [files, setFiles] = useState<ReleaseFiles>({ audio: null, artwork: null });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [bytes, setBytes] = useState<{ label: string; progress: ByteProgress } | null>(null);
  const [log, setLog] = useState<string[]>([]);
  // The release builder's tracks (none: the single-track form of Basic Info).
  const [tracks, setTracks] = useState<TrackDraft[]>([]);
  // The cover of an album try, kept so a retry of a failed master does not send it again.
  const albumArtwork = useRef<{ file: File; ref: { bucket: string; fileKey: string } } | null>(null);
  const preselectedOnce = useRef(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Spec: the first 20 platforms start selected, once the list has arrived.
  useEffect(() => {
    if (platforms.data && !preselectedOnce.current) {
      preselectedOnce.current = true;
      setSelected(new Set(platforms.data.preselected));
    }
  }, [platforms.data]);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const setTrackState = (key: string, upload: UploadState) =>
    setTracks((all) => all.map((t) => (t.key === key ? { ...t, upload } : t)));

  /** Files chosen or dropped on the Tracks card: the Basic Info master becomes track 1 when it is the first. */
  function addTracks(chosen: File[]) {
    if (chosen.length === 0) return;
    const first =
      tracks.length === 0 && files.audio
        ? [newTrack(files.audio, values.trackTitle.trim() || undefined)]
        : [];
    const added = [...first, ...chosen.map((file) => newTrack(file))];
    setTracks((all) => [...all, ...added]);
    // Checked in the browser as they arrive, before a byte is sent.
    for (const track of added) {
      void Promise.all([checkMasterAudio(track.file), readAudioSeconds(track.file)]).then(
        ([check, seconds]) =>
          setTracks((all) =>
            all.map((t) => (t.key === track.key ? { ...t, problems: check.problems, seconds } : t)),
          ),
      );
    }
  }

  async function onSubmitAlbum() {
    const problem =
      status !== 'signed-in'
        ? 'Please sign in to upload music.'
        : !values.artistName.trim() || !values.releaseTitle.trim()
          ? RELEASE_MESSAGES.required
          : !files.artwork
            ? 'Please add the cover artwork.'
            : (preOrderProblem(values.preOrderDate, values.releaseDate) ??
              tracksProblem(tracks) ??
              (await checkCoverArt(files.artwork)).problems[0] ??
              null);
    if (problem || !files.artwork) {
      const message = `${problem} Checked in your browser: nothing was uploaded.`;
      toast.error('Upload Failed', { id: FORM_TOAST, description: message });
      setLog([`Error: ${message}`]);
      return;
    }
    setBusy(true);
    setLog([
      `Checks passed: "${values.releaseTitle.trim()}" by ${values.artistName.trim()}, ${tracks.length} tracks`,
    ]);
    const order = platforms.data?.platforms.map((platform) => platform.key) ?? [];
    const stores = order.filter((key) => selected.has(key));
    const totalBytes = tracks.reduce((n, t) => n + t.file.size, 0) || 1;
    const percents = new Map(tracks.map((t) => [t.key, t.upload.state === 'done' ? 100 : 0]));
    const overall = () =>
      setProgress(
        Math.round(
          10 +
            (75 * tracks.reduce((n, t) => n + (percents.get(t.key) ?? 0) * t.file.size, 0)) /
              (100 * totalBytes),
        ),
      );
    try {
      if (albumArtwork.current?.file !== files.artwork) {
        const up = await uploadFile({
          bucket: ARTIST_UPLOAD_BUCKET,
          purpose: 'artist-upload',
          role: 'artwork',
          file: files.artwork,
        });
        albumArtwork.current = { file: files.artwork, ref: { bucket: up.bucket, fileKey: up.fileKey } };
        setLog((lines) => [...lines, 'Artwork uploaded and checked']);
      }
      overall();
      const ended = await uploadMasters(
        tracks,
        (key, upload) => {
          setTrackState(key, upload);
          percents.set(
            key,
            upload.state === 'done' ? 100 : upload.state === 'uploading' ? upload.percent : 0,
          );
          overall();
          if (upload.state === 'done' || upload.state === 'failed') {
            const name = tracks.find((t) => t.key === key)?.title ?? key;
            setLog((lines) => [
              ...lines,
              upload.state === 'done' ? `Uploaded: ${name}` : `Error: ${name}: ${upload.error}`,
            ]);
          }
        },
        { uploadFile },
      );
      const failed = tracks.filter((t) => ended.get(t.key)?.state === 'failed');
      if (failed.length > 0) {
        toast.error('Upload Failed', {
          id: FORM_TOAST,
          description: `${failed.length} of ${tracks.length} masters did not upload. Press the button again to retry ${failed.length === 1 ? 'it' : 'them'} alone.`,
        });
        setProgress(0);
        return;
      }
      const first = ended.get(tracks[0]!.key);
      const request = toCreateReleaseRequest(
        values,
        {
          audio: first?.state === 'done' ? first.file : albumArtwork.current.ref,
          artwork: albumArtwork.current.ref,
        },
        stores,
      );
      delete request.audio;
      delete request.trackTitle;
      const release = await createRelease({ ...request, tracks: tracksRequest(tracks, ended) });
      setProgress(100);
      for (const warning of release.warnings) setLog((lines) => [...lines, `Warning: ${warning}`]);
      const releasePage = `/release/${encodeURIComponent(release.id)}`;
      toast.success('Upload Successful!', {
        id: FORM_TOAST,
        description: `"${release.title}" (${release.tracks.length} tracks) is queued for delivery. Opening the release…`,
        announces: releasePage,
      });
      redirectTimer.current = setTimeout(() => navigate(releasePage), REDIRECT_AFTER_UPLOAD_MS);
    } catch (error) {
      const message = errorMessage(error, 'An error occurred during upload.');
      toast.error('Upload Failed', { id: FORM_TOAST, description: message });
      setLog((lines) => [...lines, `Error: ${message}`]);
      setProgress(0);
    } finally {
      setBusy(false);
    }
  }

  async function onSubmit() {
    if (tracks.length > 0) return onSubmitAlbum();
    const problem = checkArtistUpload(status === 'signed-in', values, files);
    if (problem) {
      toast.error(problem.title, { id: FORM_TOAST, description: problem.description });
      return;
    }
    // checkArtistUpload guarantees both files; the narrowing is for TypeScript.
    if (!files.audio || !files.artwork) return;
    // The stores' rules that a file's header shows are checked here, before a byte is sent (issue 21 §3.7).
    const [audioCheck, artworkCheck] = await Promise.all([
      checkMasterAudio(files.audio),
      checkCoverArt(files.artwork),
    ]);
    const fileProblem = audioCheck.problems[0] ?? artworkCheck.problems[0];
    if (fileProblem) {
      // Spec §8's 'Upload Failed' with the rule's own words, in the toast and the Upload Log.
      const message = `${fileProblem} Checked in your browser: nothing was uploaded.`;
      toast.error('Upload Failed', { id: FORM_TOAST, description: message });
      setLog([`Error: ${message}`]);
      return;
    }
    setBusy(true);
    setProgress(0);
    setLog([]);
    const order = platforms.data?.platforms.map((platform) => platform.key) ?? [];
    const stores = order.filter((key) => selected.has(key));
    try {
      const release = await runArtistUpload(
        {
          values,
          audio: files.audio,
          artwork: files.artwork,
          stores,
          platformCount: platforms.data?.platforms.length ?? 0,
        },
        {
          progress: setProgress,
          log: (line) => setLog((lines) => [...lines, line]),
          bytes: (label, byteProgress) =>
            setBytes(label && byteProgress ? { label, progress: byteProgress } : null),
        },
        { uploadFile, createRelease, discardUpload },
      );
      const releasePage = `/release/${encodeURIComponent(release.id)}`;
      toast.success('Upload Successful!', {
        id: FORM_TOAST,
        description: `"${release.title}" is queued for delivery. Opening the release…`,
        announces: releasePage,
      });
      // The spec sends the user to /admin/uploads, which an artist may not open: the new release instead.
      redirectTimer.current = setTimeout(() => navigate(releasePage), REDIRECT_AFTER_UPLOAD_MS);
    } catch (error) {
      const message = errorMessage(error, 'An error occurred during upload.');
      toast.error('Upload Failed', { id: FORM_TOAST, description: message });
      setLog((lines) => [...lines, `Error: ${message}`]);
      // Spec: busy state and progress reset at the end. The form keeps what was typed and chosen.
      setProgress(0);
    } finally {
      setBytes(null);
      setBusy(false);
    }
  }

  return (
    <PageFrame>
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Artist Upload</h1>
        <p className="mt-2 text-muted-foreground">
          Upload your release once and distribute it to 142 streaming platforms and stores worldwide.
        </p>
      </div>

      {status === 'loading' ? <Spinner label="Checking your session…" /> : null}
      {status === 'signed-out' ? <AuthenticationRequired /> : null}

      <Card>
        <CardHeader>
          <CardTitle>Release Details</CardTitle>
          <CardDescription>Fields marked * are required.</CardDescription>
        </CardHeader>
        <CardContent>
          <ReleaseTabs
            values={values}
            onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
            files={files}
            onFiles={(patch) => setFiles((current) => ({ ...current, ...patch }))}
            disabled={busy}
            albumTracks={tracks.length}
          />
        </CardContent>
      </Card>

      <TrackList
        tracks={tracks}
        releaseType={values.releaseType}
        disabled={busy}
        onChange={setTracks}
        onAddFiles={addTracks}
      />

      <PlatformPicker
        platforms={platforms.data?.platforms}
        loadError={platforms.error ? errorMessage(platforms.error, 'Unknown error') : null}
        selected={selected}
        onChange={setSelected}
        disabled={busy}
      />

      <div className="space-y-3">
        <Button size="lg" className="w-full sm:w-auto" onClick={onSubmit} disabled={busy}>
          {busy ? (
            <>
              <Loader2 className="animate-spin" aria-hidden="true" />
              Uploading...
            </>
          ) : (
            'Upload & Queue Delivery'
          )}
        </Button>
        {busy || progress > 0 ? (
          <div className="space-y-1" data-testid="upload-progress">
            <div className="flex justify-between text-sm">
              <span>{bytes ? `${bytes.label} upload` : 'Progress'}</span>
              <span data-testid="upload-percent">{progress}%</span>
            </div>
            <Progress value={progress} aria-label="Upload progress" />
            {bytes ? (
              <p className="text-xs text-muted-foreground" data-testid="byte-progress">
                {bytes.label}: {bytes.progress.percent}% ({formatBytes(bytes.progress.loaded)} of{' '}
                {formatBytes(bytes.progress.total)})
              </p>
            ) : null}
          </div>
        ) : null}
      </div>

      <UploadLog lines={log} />
    </PageFrame>
  );
}
