// Reporting the other party of an offer (spec 2 §3 "Report": reporterID, reportedID and the first
// requested listing as reportedListingID). The moderation service that takes reports has no route
// in the contracts yet, so nothing can be sent: until it has, a report fails with a message that
// says so (as on the listing page), and the dialog keeps the typed reason.

export interface OfferReport {
  reporterID: string;
  reportedID: string;
  reportedListingID: string;
  reason: string;
}

export const REPORT_UNAVAILABLE = 'Melden is nog niet beschikbaar. Probeer het later opnieuw.';

export async function sendReport(report: OfferReport): Promise<void> {
  void report;
  throw new Error(REPORT_UNAVAILABLE);
}
