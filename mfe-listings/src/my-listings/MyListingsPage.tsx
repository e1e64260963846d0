import { useId, useState, type KeyboardEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { FREE_ACTIVE_LISTINGS_MAX, listingApi, type Listing } from '@ruilplein/contracts/browser';
import { ApiError, buttonClass, EmptyState, Loaded, Page, request, useApi, useConfirm, useSession } from '@ruilplein/ui';
import { Link } from 'react-router-dom';
import { ListingTile } from './ListingTile.tsx';
import { Notice, type NoticeValue } from './Notice.tsx';
import { invalidateListingData } from './queries.ts';
import * as tileStyles from './ListingTile.module.css';
import * as styles from './MyListingsPage.module.css';

const upgradeHint = 'Upgrade naar Premium voor meer dan 5 actieve listings.';

/**
 * 'Upgrade nodig' with its hint as a tooltip: shown on hover and on keyboard focus, hidden again by
 * Escape (WCAG 1.4.13), and always the button's description for screen readers.
 */
function UpgradeNeeded() {
  const tooltipId = useId();
  const [shown, setShown] = useState(false);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') setShown(false);
  };
  return (
    <span className={styles.tooltipAnchor} onMouseEnter={() => setShown(true)} onMouseLeave={() => setShown(false)}>
      <Link
        to="/dashboard/upgrade"
        className={buttonClass('secondary')}
        aria-describedby={tooltipId}
        onFocus={() => setShown(true)}
        onBlur={() => setShown(false)}
        onKeyDown={onKeyDown}
      >
        Upgrade nodig
      </Link>
      <span id={tooltipId} role="tooltip" className={styles.tooltip} hidden={!shown}>
        {upgradeHint}
      </span>
    </span>
  );
}

/** 'Nieuwe Listing' while the member may place one more (Premium, or under the free limit), else 'Upgrade nodig'. */
function NewListingButton({ listings }: { listings: Listing[] }) {
  const { isPremium } = useSession();
  const active = listings.filter((listing) => listing.isActive).length;
  if (!isPremium && active >= FREE_ACTIVE_LISTINGS_MAX) return <UpgradeNeeded />;
  return (
    <Link to="/dashboard/add-listing" className={buttonClass()}>
      <Plus aria-hidden="true" size={18} />
      Nieuwe Listing
    </Link>
  );
}

/** /dashboard/my-listings, 'Mijn Listings' (spec 2 §2): the member's own listings, to edit or delete. */
export function MyListingsPage() {
  const listings = useApi(listingApi.my);
  const queries = useQueryClient();
  const [dialog, confirm] = useConfirm();
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => request(listingApi.delete, { params: { id } }),
    onSuccess: () => {
      setNotice({ ok: true, message: 'Listing succesvol verwijderd.' });
      return invalidateListingData(queries);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status !== 0) setNotice({ ok: false, message: `Fout: ${err.message || 'Onbekende fout.'}` });
      else setNotice({ ok: false, message: 'Er ging iets mis bij het verwijderen.' });
    },
  });

  const askRemove = async (listing: Listing) => {
    if (!(await confirm('Weet je zeker dat je deze listing wilt verwijderen?', { confirmLabel: 'Verwijderen', danger: true }))) return;
    setNotice(null);
    remove.mutate(listing.id);
  };

  return (
    <Page title="Mijn Listings">
      <Loaded query={listings} label="Je listings worden geladen…">
        {(list) => (
          <>
            <div className={styles.toolbar}>
              <NewListingButton listings={list} />
            </div>
            <Notice notice={notice} />
            {list.length === 0 ? (
              <EmptyState>Je hebt nog geen listings toegevoegd.</EmptyState>
            ) : (
              <ul className={tileStyles.grid}>
                {list.map((listing) => (
                  <li key={listing.id}>
                    <ListingTile
                      listing={listing}
                      actions={(titleId) => (
                        <>
                          <Link to={`/dashboard/edit-listing/${listing.id}`} className={buttonClass('secondary')} aria-describedby={titleId}>
                            Bewerken
                          </Link>
                          <button
                            type="button"
                            className={`${buttonClass('secondary')} ${styles.delete}`}
                            aria-describedby={titleId}
                            disabled={remove.isPending && remove.variables === listing.id}
                            onClick={() => void askRemove(listing)}
                          >
                            Verwijderen
                          </button>
                        </>
                      )}
                    />
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Loaded>
      {dialog}
    </Page>
  );
}
