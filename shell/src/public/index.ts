// The shell's public side: layout (navigation bar, footer), landing page and text pages.
export { PublicLayout } from './PublicLayout.tsx';
export { NotFound, publicPageRoutes } from './routes.tsx';
export { ScrollToTop } from './ScrollToTop.tsx';
