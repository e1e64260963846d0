import type { ReactNode } from 'react';
import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import { buttonClass } from './button.ts';
import { ErrorMessage, Spinner } from './layout.tsx';
import * as styles from './loaded.module.css';
import { failureMessage } from './query.ts';

/** The "Laad meer" button under a paged list: absent without a next page, busy while it loads. */
export function LoadMore({ pages }: { pages: Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'> }) {
  if (!pages.hasNextPage) return null;
  return (
    <button type="button" className={`${buttonClass('secondary')} ${styles.loadMore}`} onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage} aria-busy={pages.isFetchingNextPage}>
      {pages.isFetchingNextPage ? 'Laden…' : 'Laad meer'}
    </button>
  );
}

/**
 * A query's three states as every page shows them: a spinner while loading, the Dutch error with a
 * retry when it failed (`failure`, else the server's own message), else the content.
 */
export function Loaded<T>({ query, label, failure, children }: { query: UseQueryResult<T>; label?: string; failure?: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Spinner label={label} />;
  if (query.isError) return <ErrorMessage message={failure ?? failureMessage(query.error)} onRetry={() => void query.refetch()} />;
  return children(query.data);
}
