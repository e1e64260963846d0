import { Page } from '@ruilplein/ui';
import { ListingForm } from './ListingForm.tsx';

/** /dashboard/add-listing, 'Nieuwe Listing Toevoegen' (spec 2 §2). */
export function AddListingPage() {
  return (
    <Page title="Nieuwe Listing Toevoegen">
      <ListingForm />
    </Page>
  );
}
