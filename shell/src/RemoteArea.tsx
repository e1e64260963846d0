import { Component, Suspense, use, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { ErrorMessage, Spinner } from '@ruilplein/ui';
import { loadRoutes, reloadRoutes, retryIfFailed, type RemoteName } from './remotes.ts';

interface BoundaryProps {
  fallback: ReactNode;
  /** A new value (the next page) clears a shown failure. */
  resetKey: string;
  children: ReactNode;
}

/** Catches a remote that fails to load or throws while rendering, so only its own area breaks. */
class ErrorBoundary extends Component<BoundaryProps, { failed: boolean; resetKey: string }> {
  override state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function RemoteRoutes({ remote }: { remote: RemoteName }) {
  const Tree = use(loadRoutes(remote));
  return <Tree />;
}

/** One remote's part of the page: a spinner while it loads, a Dutch error with retry when it fails. */
export function RemoteArea({ remote }: { remote: RemoteName }) {
  const { pathname } = useLocation();
  const [attempt, setAttempt] = useState(() => {
    retryIfFailed(remote); // before the first render, so an earlier failure does not flash up
    return 0;
  });
  const retry = () => {
    reloadRoutes(remote);
    setAttempt((n) => n + 1);
  };
  return (
    <div className="remote-area" data-testid="remote-area">
      <ErrorBoundary
        key={attempt}
        resetKey={pathname}
        fallback={<ErrorMessage data-testid="remote-error" message="Dit onderdeel kon niet worden geladen." onRetry={retry} />}
      >
        <Suspense fallback={<Spinner />}>
          <RemoteRoutes remote={remote} />
        </Suspense>
      </ErrorBoundary>
    </div>
  );
}
