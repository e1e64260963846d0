import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Heart } from 'lucide-react';
import { wishlistApi } from '@ruilplein/contracts/browser';
import { ApiError, apiKey, apiQuery, request, useApi } from '@ruilplein/ui';
import * as styles from './ListingDetail.module.css';

/** What went wrong, in the words of the wishlist screens (spec 2 §8). */
function failure(adding: boolean, err: unknown): string {
  const reached = err instanceof ApiError && err.status !== 0;
  if (adding) return `❌ Fout bij toevoegen aan wishlist: ${err instanceof Error ? err.message : 'Onbekende fout.'}`;
  return reached ? `❌ Fout bij verwijderen: ${err.message}` : '❌ Er ging iets mis.';
}

/** The heart on someone else's listing: a toggle button (aria-pressed) for the member's wishlist. */
export function WishlistToggle({ listingId }: { listingId: string }) {
  const queries = useQueryClient();
  const input = { params: { id: listingId } };
  const state = useApi(wishlistApi.exists, input);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const toggle = useMutation({
    mutationFn: (add: boolean) => (add ? request(wishlistApi.add, input) : request(wishlistApi.delete, { params: { listingId } })),
    onMutate: () => setNotice(null),
    onSuccess: (_answer, add) => {
      queries.setQueryData(apiQuery(wishlistApi.exists, input).queryKey, { isWishlisted: add });
      void queries.invalidateQueries({ queryKey: apiKey(wishlistApi.my).slice(0, 2) });
      setNotice({ ok: true, text: add ? '✅ Toegevoegd aan wishlist' : '✅ Verwijderd uit wishlist' });
    },
    onError: (err, add) => setNotice({ ok: false, text: failure(add, err) }),
  });
  const pressed = state.data?.isWishlisted ?? false;
  return (
    <div className={styles.wishlist}>
      <button
        type="button"
        className={styles.heart}
        aria-pressed={pressed}
        disabled={state.isPending || toggle.isPending}
        onClick={() => toggle.mutate(!pressed)}
        data-testid="wishlist-toggle"
      >
        <Heart aria-hidden="true" size={20} fill={pressed ? 'currentColor' : 'none'} />
        Verlanglijstje
      </button>
      <p className={notice?.ok === false ? styles.problem : styles.done} role="status">
        {notice?.text}
      </p>
    </div>
  );
}
