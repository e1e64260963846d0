import { Component, Suspense, use, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { ErrorMessage, Page, Spinner } from '@ruilplein/ui';
import type { KnownArea } from './areas.ts';
import { loadRoutes, reloadRoutes, retryIfFailed } from './remotes.ts';
import * as styles from './RemoteArea.module.css';

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

function RemoteRoutes({ area }: { area: KnownArea }) {
  const Tree = use(loadRoutes(area.name, area.entry));
  // eslint-disable-next-line react-hooks/static-components -- not made here: remotes.ts loads each remote's routes component once and hands out that same one on every render.
  return <Tree />;
}

export const areaFailed = 'Dit onderdeel kon niet worden geladen.';
export const areaIncompatible = 'Dit onderdeel is gemaakt voor een andere versie van Ruilplein en kan nu niet worden geladen. Probeer het later opnieuw.';

/**
 * The area's frame. A failure keeps the page's heading (the declared title), so the page still
 * says where the member is.
 */
function Frame({ children }: { children: ReactNode }) {
  return (
    <div className={styles.area} data-testid="remote-area">
      {children}
    </div>
  );
}

/** A remote's page that cannot be shown: its title and the Dutch reason, with a retry when one can help. */
export function AreaFailure({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  return (
    <Page title={title}>
      <ErrorMessage data-testid="remote-error" message={message} onRetry={onRetry} />
    </Page>
  );
}

/**
 * One remote's part of the page: a spinner while it loads, a Dutch error with retry when it fails.
 * A remote built against other major versions of the shared singletons than the shell provides is
 * not loaded at all: its code would break at run time in ways no boundary catches cleanly.
 */
export function RemoteArea({ area, title }: { area: KnownArea; title: string }) {
  const { pathname } = useLocation();
  const [attempt, setAttempt] = useState(() => {
    if (area.mismatches.length === 0) retryIfFailed(area.name, area.entry); // before the first render, so an earlier failure does not flash up
    return 0;
  });
  if (area.mismatches.length > 0) {
    console.warn(`Onderdeel ${area.name} past niet bij de shell:`, area.mismatches.join('; '));
    return (
      <Frame>
        <AreaFailure title={title} message={areaIncompatible} />
      </Frame>
    );
  }
  const retry = () => {
    reloadRoutes(area.name, area.entry);
    setAttempt((n) => n + 1);
  };
  return (
    <Frame>
      <ErrorBoundary key={attempt} resetKey={pathname} fallback={<AreaFailure title={title} message={areaFailed} onRetry={retry} />}>
        <Suspense fallback={<Spinner />}>
          <RemoteRoutes area={area} />
        </Suspense>
      </ErrorBoundary>
    </Frame>
  );
}
