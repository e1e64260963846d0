// The result list of the search and services pages: 15 cards a page, 'Laad meer' while the last
// page was full (spec 2 §9), the member's own marked, each other owner's reliability line on the card.
import { useEffect } from 'react';
import { listingApi, SEARCH_PAGE_SIZE, userApi, type ListingCard as Card } from '@ruilplein/contracts/browser';
import { EmptyState, ErrorMessage, failureMessage, LoadMore, Spinner, useApi, useApiPages, useSession } from '@ruilplein/ui';
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
  const byPage: Card[][] = pages.data.pages.map((page) => page.filter((listing) => !seen.has(listing.id) && Boolean(seen.add(listing.id))));
  const listings = byPage.flat();
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
          {byPage.map((page, i) => (
            <PageCards key={i} page={page} ownId={user?.id} words={words} services={services} />
          ))}
        </ListingCardList>
      )}
      <LoadMore pages={pages} />
    </>
  );
}

/** One page's cards, with its other owners' reliability asked in one question (each page's owners fit one). */
function PageCards({ page, ownId, words, services }: { page: Card[]; ownId: string | undefined; words: ResultWords; services: boolean }) {
  const owners = [...new Set(page.map((listing) => listing.user.id).filter((id) => id !== ownId))].sort();
  const scores = useApi(userApi.reliabilities, { query: { ids: owners.join(',') } }, { enabled: owners.length > 0, staleTime: 5 * 60_000 });
  const byOwner = new Map((scores.data ?? []).map((score) => [score.userId, score]));
  return page.map((listing) => (
    <ListingCard key={listing.id} listing={listing} own={listing.user.id === ownId} ownLabel={words.own} services={services} reliability={byOwner.get(listing.user.id)} />
  ));
}
