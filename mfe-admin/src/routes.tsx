import { AreaRoutes } from '@ruilplein/ui';
import area from './area.ts';
import { Dashboard } from './dashboard/Dashboard.tsx';
import { AdminLayout } from './layout/AdminLayout.tsx';
import { Reports } from './reports/Reports.tsx';
import { Users } from './users/Users.tsx';

/** The admin area in its own layout; the shell mounts it at /admin, so the paths of area.ts are relative to that. */
export default function AdminRoutes() {
  return (
    <AdminLayout>
      <AreaRoutes area={area} screens={{ '': <Dashboard />, users: <Users />, reports: <Reports /> }} />
    </AdminLayout>
  );
}
