// The result list of the search and services pages: 15 cards a page, 'Laad meer' while the last
// page was full (spec 2 §9), the member's own marked.
import { useEffect } from 'react';
import { listingApi, SEARCH_PAGE_SIZE, type ListingCard as Card } from '@ruilplein/contracts/browser';
import { EmptyState, ErrorMessage, failureMessage, LoadMore, Spinner, useApiPages, useSession } from '@ruilplein/ui';
import { ListingCard, ListingCardList } from '../common/ListingCard.tsx';
import type { SearchQuery } from './filters.ts';
import * as styles from './SearchPage.module.css';

export interface ResultWords {
  /** Shown when nothing matches. */
  empty: string;
  /** The badge on the member's own cards. */
  own: string;
  /** Logged when a page fails (spec 2 §8). */
  failed: string;
  /** '3 listings', '1 dienst'. */
  count: (n: number) => string;
}

const useSearch = (query: SearchQuery) => useApiPages(listingApi.search, { query }, { hasMore: (last) => last.length === SEARCH_PAGE_SIZE });

/** The results' count in a few words (the same query and cache entry as `Results`), for the phone's filter bar; empty while loading. */
export function ResultCount({ query, words }: { query: SearchQuery; words: ResultWords }) {
  const pages = useSearch(query);
  if (!pages.data) return null;
  const count = new Set(pages.data.pages.flat().map((listing) => listing.id)).size;
  return (
    <span className={styles.phoneCount} data-testid="phone-result-count">
      {`${words.count(count)}${pages.hasNextPage ? ' (er zijn er meer)' : ''}`}
    </span>
  );
}

export function Results({ query, words, services = false }: { query: SearchQuery; words: ResultWords; services?: boolean }) {
  const { user } = useSession();
  const pages = useSearch(query);
  useEffect(() => {
    if (pages.error) console.warn(words.failed, pages.error);
  }, [pages.error, words.failed]);

  if (pages.isPending) return <Spinner label="Zoeken…" />;
  if (!pages.data) return <ErrorMessage message={failureMessage(pages.error)} onRetry={() => void pages.refetch()} />;

  // A listing placed while paging can push one onto the next page twice: each shows once.
  const seen = new Set<string>();
  const listings: Card[] = pages.data.pages.flat().filter((listing) => !seen.has(listing.id) && Boolean(seen.add(listing.id)));
  return (
    <>
      <p className={styles.count} role="status">
        {listings.length === 0 ? '' : `${words.count(listings.length)}${pages.hasNextPage ? ' (er zijn er meer)' : ''}`}
      </p>
      {pages.isFetchNextPageError && <ErrorMessage message={failureMessage(pages.error)} />}
      {listings.length === 0 ? (
        <EmptyState>{words.empty}</EmptyState>
      ) : (
        <ListingCardList>
          {listings.map((listing) => (
            <ListingCard key={listing.id} listing={listing} own={listing.user.id === user?.id} ownLabel={words.own} services={services} />
          ))}
        </ListingCardList>
      )}
      <LoadMore pages={pages} />
    </>
  );
}
