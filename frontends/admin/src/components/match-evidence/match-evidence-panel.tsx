// The admin's side-by-side of a rights-check match (issue 27): the held upload's track and the recording it
// matched, each a waveform with the aligned part marked, and a player that starts both at the match. Admin
// only (Release Review): the artist never gets the other artist's audio. Nothing is fetched until the admin
// opens it, so the review queue stays light.
import type { FingerprintEvidence } from '@omni/proto/api';
import { Button } from '@omni/ui';
import { Pause, Play } from 'lucide-react';
import { type RefObject, useRef, useState } from 'react';
import { useWaveform } from './use-waveform';

interface Side {
  label: string;
  audioPath: string;
  /** Where the aligned part starts in this recording (s). */
  alignedFrom: number;
  /** Playback rate that undoes a sped-up or slowed upload (1 for the matched recording). */
  rate: number;
}

type Wave = ReturnType<typeof useWaveform>;

function Waveform({
  side,
  container,
  wave,
}: {
  side: Side;
  container: RefObject<HTMLDivElement | null>;
  wave: Wave;
}) {
  return (
    <figure className="min-w-0 space-y-2 rounded-md border p-2" data-testid="evidence-waveform">
      <figcaption className="text-xs font-medium">{side.label}</figcaption>
      <div ref={container} className="min-h-[72px]" data-state={wave.state.kind} />
      {wave.state.kind === 'loading' ? <p className="text-xs text-muted-foreground">Loading audio…</p> : null}
      {wave.state.kind === 'failed' ? (
        <p className="text-xs text-destructive" role="alert">
          The audio could not be loaded: {wave.state.message}
        </p>
      ) : null}
      <div className="flex items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={wave.state.kind !== 'ready'}
          aria-label={`${wave.playing ? 'Pause' : 'Play'} ${side.label}`}
          onClick={() => {
            const ws = wave.wave.current;
            if (!ws) return;
            ws.setPlaybackRate(side.rate, false);
            void ws.playPause();
          }}
        >
          {wave.playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          {wave.playing ? 'Pause' : 'Play'}
        </Button>
        <span className="text-xs tabular-nums text-muted-foreground" data-testid="evidence-time">
          {wave.time.toFixed(1)} s
          {wave.state.kind === 'ready' ? ` of ${wave.state.duration.toFixed(1)} s` : ''}
        </span>
      </div>
    </figure>
  );
}

function Comparison({ releaseId, match }: { releaseId: string; match: FingerprintEvidence }) {
  const uploadTrack = match.uploadTrack || 1;
  // The upload played at `speed` lines up with the matched recording from `offsetSeconds` on.
  const upload: Side = {
    label: `This upload, track ${uploadTrack}${match.speed !== 1 ? ` (played at ${match.speed}× to match)` : ''}`,
    audioPath: `/api/admin/releases/${releaseId}/tracks/${uploadTrack}/audio`,
    alignedFrom: 0,
    rate: match.speed,
  };
  const matched: Side = {
    label: `Matched: release ${match.releaseId}, track ${match.track} “${match.title}”`,
    audioPath: `/api/admin/releases/${match.releaseId}/tracks/${match.track}/audio`,
    alignedFrom: Math.max(0, match.offsetSeconds),
    rate: 1,
  };
  const uploadBox = useRef<HTMLDivElement>(null);
  const matchedBox = useRef<HTMLDivElement>(null);
  const uploadWave = useWaveform(uploadBox, upload.audioPath, upload.alignedFrom);
  const matchedWave = useWaveform(matchedBox, matched.audioPath, matched.alignedFrom);
  const ready = uploadWave.state.kind === 'ready' && matchedWave.state.kind === 'ready';
  const playBoth = () => {
    const a = uploadWave.wave.current;
    const b = matchedWave.wave.current;
    if (!a || !b) return;
    a.setPlaybackRate(match.speed, false);
    a.setTime(0);
    b.setTime(matched.alignedFrom);
    void a.play();
    void b.play();
  };
  const pauseBoth = () => {
    uploadWave.wave.current?.pause();
    matchedWave.wave.current?.pause();
  };
  return (
    <div className="space-y-2" data-testid="match-evidence-panel">
      <div className="grid gap-2 md:grid-cols-2">
        <Waveform side={upload} container={uploadBox} wave={uploadWave} />
        <Waveform side={matched} container={matchedBox} wave={matchedWave} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={!ready} onClick={playBoth}>
          <Play aria-hidden="true" />
          Play both at the match
        </Button>
        <Button size="sm" variant="outline" disabled={!ready} onClick={pauseBoth}>
          <Pause aria-hidden="true" />
          Pause both
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        The marked part of the matched recording starts at {match.offsetSeconds.toFixed(1)} s: “Play both”
        starts the upload from its beginning and the matched recording there.
      </p>
    </div>
  );
}

/** "Compare audio" for one fingerprint match, closed until the admin opens it. */
export function MatchEvidencePanel({ releaseId, match }: { releaseId: string; match: FingerprintEvidence }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="space-y-2">
      <Button size="sm" variant="outline" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide audio' : 'Compare audio'}
      </Button>
      {open ? <Comparison releaseId={releaseId} match={match} /> : null}
    </div>
  );
}
