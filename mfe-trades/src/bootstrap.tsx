import { mountStandalone } from '@ruilplein/frontend-build/standalone';
import TradesRoutes from './routes.tsx';

mountStandalone(TradesRoutes, '/dashboard', '/dashboard/offers');
