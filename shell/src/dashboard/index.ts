// The shell's dashboard: its frame (session guard, sidebar, status check), home and own profile.
export { DashboardHome } from './Home.tsx';
export { DashboardLayout } from './Layout.tsx';
export { Profile } from './Profile.tsx';
