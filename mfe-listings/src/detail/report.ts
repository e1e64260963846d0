// Reporting a listing's owner (spec 2 §3 "Report"): the moderation service that takes reports has no
// route in the contracts yet, so nothing can be sent. Until it has, a report fails with a message that
// says so, and the dialog keeps the typed reason.

export interface ListingReport {
  reporterID: string;
  reportedID: string;
  reportedListingID: string;
  reason: string;
}

export const REPORT_UNAVAILABLE = 'Melden is nog niet beschikbaar. Probeer het later opnieuw.';

export async function sendReport(report: ListingReport): Promise<void> {
  void report;
  throw new Error(REPORT_UNAVAILABLE);
}
