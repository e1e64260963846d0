import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** Every route change starts at the top of the page (spec 1 §2); mounted once, above all routes. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  // Before paint, so the new page never shows at the old page's scroll position.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
