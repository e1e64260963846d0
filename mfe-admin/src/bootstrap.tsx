import { mountStandalone } from '@ruilplein/frontend-build/standalone';
import AdminRoutes from './routes.tsx';

mountStandalone(AdminRoutes, '/admin', '/admin');
