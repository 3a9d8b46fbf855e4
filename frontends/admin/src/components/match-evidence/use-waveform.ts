// One recording's waveform and player (wavesurfer.js), for comparing a rights-check match. The master is
// fetched with the admin's session (an <audio> element cannot carry the bearer) and played from memory, so
// seeking to the aligned offset is instant.
import { apiResponse } from '@omni/ui';
import { type RefObject, useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';

export type WaveState =
  | { kind: 'loading' }
  | { kind: 'ready'; duration: number }
  | { kind: 'failed'; message: string };

export function useWaveform(
  container: RefObject<HTMLDivElement | null>,
  audioPath: string,
  /** Where the aligned part starts, in seconds; it is marked from there to the end once decoded. */
  alignedFrom: number,
) {
  const wave = useRef<WaveSurfer | null>(null);
  const [state, setState] = useState<WaveState>({ kind: 'loading' });
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let cancelled = false;
    const regions = RegionsPlugin.create();
    const ws = WaveSurfer.create({
      container: element,
      height: 72,
      waveColor: '#a78bfa',
      progressColor: '#6d28d9',
      cursorColor: '#111827',
      normalize: true,
      plugins: [regions],
    });
    wave.current = ws;
    ws.on('ready', (duration) => {
      regions.addRegion({
        start: Math.max(0, alignedFrom),
        end: Math.max(alignedFrom + 0.1, duration),
        color: 'rgba(234, 179, 8, 0.25)',
        drag: false,
        resize: false,
      });
      setState({ kind: 'ready', duration });
    });
    ws.on('play', () => setPlaying(true));
    ws.on('pause', () => setPlaying(false));
    ws.on('finish', () => setPlaying(false));
    ws.on('timeupdate', (t) => setTime(t));
    ws.on('error', (err) => setState({ kind: 'failed', message: String(err) }));
    apiResponse(audioPath)
      .then((res) => res.blob())
      // Decoded from the blob itself: the page's CSP lets media play blob: URLs but not fetch them.
      .then((blob) => (cancelled ? undefined : ws.loadBlob(blob)))
      .catch((err: unknown) => {
        if (!cancelled)
          setState({
            kind: 'failed',
            message: err instanceof Error ? err.message : 'The audio could not be loaded.',
          });
      });
    return () => {
      cancelled = true;
      ws.destroy();
      wave.current = null;
    };
  }, [container, audioPath, alignedFrom]);

  return { wave, state, playing, time };
}
