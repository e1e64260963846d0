// The run-time package the shell and every remote share (one copy: a Module Federation singleton).
import './styles.css';

export { ApiError } from './api.ts';
export { request, type RequestOptions } from './client.ts';
export { formatDate, formatDistance } from './format.ts';
export { ComingSoon, EmptyState, ErrorMessage, Page, Spinner } from './layout.tsx';
export { SessionProvider, useSession, type Session, type SessionUser } from './session.tsx';
