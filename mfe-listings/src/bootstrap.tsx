import { mountStandalone } from '@ruilplein/frontend-build/standalone';
import ListingsRoutes from './routes.tsx';

mountStandalone(ListingsRoutes, '/dashboard', '/dashboard/search');
