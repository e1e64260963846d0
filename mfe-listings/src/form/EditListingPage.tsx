import { listingApi } from '@ruilplein/contracts/browser';
import { ApiError, ErrorMessage, failureMessage, Page, Spinner, useApi, useSession } from '@ruilplein/ui';
import { useParams } from 'react-router-dom';
import { ListingForm } from './ListingForm.tsx';

const notFound = 'Listing niet gevonden.';

/** /dashboard/edit-listing/:id, 'Listing Bewerken' (spec 2 §2): the own listing in the add form; anyone else's is not found. */
export function EditListingPage() {
  const { id = '' } = useParams();
  const { user } = useSession();
  const listing = useApi(listingApi.get, { params: { id } });

  let content;
  if (listing.isPending) content = <Spinner label="Listing wordt geladen…" />;
  else if (listing.isError) {
    // A refusal of the id (unknown, malformed, not visible) is 'not found'; an outage can be retried.
    const outage = !(listing.error instanceof ApiError) || listing.error.status === 0 || listing.error.status >= 500;
    content = outage ? <ErrorMessage message={failureMessage(listing.error)} onRetry={() => void listing.refetch()} /> : <ErrorMessage message={notFound} />;
  } else if (listing.data.user.id !== user?.id) content = <ErrorMessage message={notFound} />;
  // Keyed by the listing: the form starts from it once, a refetch does not reset what is being typed.
  else content = <ListingForm key={listing.data.id} listing={listing.data} />;

  return <Page title="Listing Bewerken">{content}</Page>;
}
