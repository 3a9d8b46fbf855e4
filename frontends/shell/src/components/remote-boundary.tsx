import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RemoteUnavailable } from './remote-unavailable';

interface State {
  failed: boolean;
}

/**
 * Catches what the federation runtime plugin cannot: a remote that loaded but throws while rendering,
 * or a failure before the runtime was set up (e.g. /app-config.json unreachable). The parent keys it
 * by path, so navigating elsewhere starts afresh.
 */
export class RemoteBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('[omni] a remote page failed', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <RemoteUnavailable /> : this.props.children;
  }
}
