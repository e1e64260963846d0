import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Heart } from 'lucide-react';
import { chainApi, wishlistApi, type WishlistEntry } from '@ruilplein/contracts/browser';
import { ApiError, EmptyState, Loaded, Page, request, useApi, useConfirm, useSession } from '@ruilplein/ui';
import { Link } from 'react-router-dom';
import { Notice, type NoticeValue } from '../my-listings/Notice.tsx';
import { invalidateListingData } from '../my-listings/queries.ts';
import { ListingThumbnail } from '../common/ListingCard.tsx';
import * as tileStyles from '../my-listings/ListingTile.module.css';
import { chainHolding, chainNote, type Chain } from './chains.ts';
import * as styles from './WishlistPage.module.css';

/** 'In een ruilketen met Bram en Cas' under a listing that is in one of the member's swap chains (issue 24). */
function ChainLine({ chains, listingId }: { chains: readonly Chain[] | undefined; listingId: string }) {
  const { user } = useSession();
  const chain = chains && chainHolding(chains, listingId);
  if (!chain) return null;
  return (
    <p className={styles.chain} data-testid="wishlist-chain">
      <Link to={`/dashboard/ruilketen/${chain.id}`}>{chainNote(chain, user?.id)}</Link>
    </p>
  );
}

/** /dashboard/wishlist, 'Mijn Verlanglijstje' (spec 2 §2): the listings the member keeps an eye on. */
export function WishlistPage() {
  const entries = useApi(wishlistApi.my);
  // One request for the whole page; without an answer (no chains service) the lines stay away.
  const chains = useApi(chainApi.suggestions);
  const queries = useQueryClient();
  const [dialog, confirm] = useConfirm();
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const remove = useMutation({
    mutationFn: (listingId: string) => request(wishlistApi.delete, { params: { listingId } }),
    onSuccess: () => {
      setNotice({ ok: true, message: '✅ Verwijderd uit wishlist' });
      return invalidateListingData(queries);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status !== 0) setNotice({ ok: false, message: `❌ Fout bij verwijderen: ${err.message}` });
      else setNotice({ ok: false, message: '❌ Er ging iets mis.' });
    },
  });

  const askRemove = async (entry: WishlistEntry) => {
    if (!(await confirm('Weet je zeker dat je dit item wilt verwijderen uit je wishlist?', { confirmLabel: 'Verwijderen', danger: true }))) return;
    setNotice(null);
    remove.mutate(entry.listing.id);
  };

  return (
    <Page title="Mijn Verlanglijstje">
      <Notice notice={notice} />
      <Loaded query={entries} label="Je verlanglijstje wordt geladen…">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>Je hebt nog geen listings aan je verlanglijstje toegevoegd.</EmptyState>
          ) : (
            <ul className={tileStyles.grid}>
              {list.map((entry) => (
                <li key={entry.id}>
                  <article className={tileStyles.tile} data-testid="wishlist-entry" data-listing-id={entry.listing.id}>
                    <div className={styles.media}>
                      <ListingThumbnail listing={entry.listing} />
                      <button
                        type="button"
                        className={styles.heart}
                        disabled={remove.isPending && remove.variables === entry.listing.id}
                        onClick={() => void askRemove(entry)}
                      >
                        <Heart aria-hidden="true" size={22} fill="currentColor" />
                        <span className={styles.visuallyHidden}>Verwijder {entry.listing.title} uit je verlanglijstje</span>
                      </button>
                    </div>
                    <div className={tileStyles.body}>
                      <h2 className={tileStyles.title}>
                        <Link to={`/dashboard/listing/${encodeURIComponent(entry.listing.id)}`}>{entry.listing.title}</Link>
                      </h2>
                      <p className={tileStyles.description}>{entry.listing.description}</p>
                      <ChainLine chains={chains.data} listingId={entry.listing.id} />
                    </div>
                  </article>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {dialog}
    </Page>
  );
}
