// The release page's delivery state, kept current by the delivery stream: the snapshot, then each job and
// release change applied as it arrives. `follow()` opens a new stream (after the page's own action, or on
// the user's 'Check again' once a stream ended or failed).
import type { DeliveryJobJson, ReleaseDeliveryJson } from '@omni/proto/api';
import { useCallback, useEffect, useReducer, useState } from 'react';
import { followDeliveries, type ReleaseEvent } from './delivery-stream';

export interface DeliveryState {
  delivery: ReleaseDeliveryJson | null;
  /** The stream is open: changes show as they happen. */
  live: boolean;
  /** Why the stream could not be opened or was lost. */
  error: string | null;
}

type Action =
  | { type: 'open' }
  | { type: 'snapshot'; delivery: ReleaseDeliveryJson }
  | { type: 'job'; job: DeliveryJobJson }
  | { type: 'release'; update: ReleaseEvent }
  | { type: 'end' }
  | { type: 'failed'; message: string };

function reduce(state: DeliveryState, action: Action): DeliveryState {
  switch (action.type) {
    case 'open':
      return { ...state, live: true, error: null };
    case 'snapshot':
      return { ...state, delivery: action.delivery, live: true, error: null };
    case 'job': {
      if (!state.delivery) return state;
      const jobs = state.delivery.jobs.some((j) => j.target === action.job.target)
        ? state.delivery.jobs.map((j) => (j.target === action.job.target ? action.job : j))
        : [...state.delivery.jobs, action.job];
      return { ...state, delivery: { ...state.delivery, jobs } };
    }
    case 'release':
      if (!state.delivery) return state;
      return { ...state, delivery: { ...state.delivery, ...action.update } };
    case 'end':
      return { ...state, live: false, delivery: state.delivery && { ...state.delivery, moving: false } };
    case 'failed':
      return { ...state, live: false, error: action.message };
  }
}

export function useDeliveryStream(releaseId: string) {
  const [state, dispatch] = useReducer(reduce, { delivery: null, live: true, error: null });
  // Bumped to open a new stream; `afterResubmit` when the page has just resubmitted the release.
  const [round, setRound] = useState({ n: 0, afterResubmit: false });
  useEffect(() => {
    dispatch({ type: 'open' });
    return followDeliveries(
      releaseId,
      {
        snapshot: (delivery) => dispatch({ type: 'snapshot', delivery }),
        job: (job) => dispatch({ type: 'job', job }),
        release: (update) => dispatch({ type: 'release', update }),
        end: () => dispatch({ type: 'end' }),
        failed: (message) => dispatch({ type: 'failed', message }),
      },
      { afterResubmit: round.afterResubmit },
    );
  }, [releaseId, round]);
  const follow = useCallback(
    (options: { afterResubmit?: boolean } = {}) =>
      setRound((r) => ({ n: r.n + 1, afterResubmit: options.afterResubmit ?? false })),
    [],
  );
  return { ...state, follow };
}
