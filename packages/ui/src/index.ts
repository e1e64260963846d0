// The run-time package the shell and every remote share (one copy: a Module Federation singleton).
import './tokens.css';

export { ApiError } from './api.ts';
export { endedBySuspension, onSuspended } from './suspended.ts';
export { buttonClass, type ButtonVariant } from './button.ts';
export { renewSession, request, type RequestOptions } from './client.ts';
export { formatDate, formatDistance } from './format.ts';
export { useHydrated } from './hydrated.ts';
export { loadLeaflet } from './leaflet.ts';
export { sessionToken, tokenExpiry } from './token.ts';
export { EmptyState, ErrorMessage, Page, Spinner } from './layout.tsx';
export { SessionProvider, useSession, type Session, type SessionUser } from './session.tsx';
export { apiKey, apiQuery, createQueryClient, failureMessage, useApi, useApiPages, worthRetrying, type Paging } from './query.ts';
export { Loaded, LoadMore } from './loaded.tsx';
export { AreaRoutes } from './area-routes.tsx';
export { useConfirm, type ConfirmOptions } from './confirm.tsx';
export { ReportDialog, type ReportDialogProps } from './report-dialog.tsx';
export { BlockButton } from './block.tsx';
export { ReceivedReviews } from './reviews.tsx';
export { SearchBox } from './search-box.tsx';
