import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { pageAt } from './pages.ts';

const site = 'Ruilplein';

/**
 * The tab's title and the meta description follow client-side navigation, from the same table
 * (pages.ts) the prerendered pages' <head> is written from; a page without an entry is 'Ruilplein'.
 * The Open Graph tags are for crawlers, which read the prerendered HTML: they follow as well when present.
 */
export function PageMeta() {
  const { pathname } = useLocation();
  useEffect(() => {
    const page = pageAt(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
    const title = page?.title ?? site;
    const description = page?.description ?? pageAt('/')?.description ?? '';
    document.title = title;
    let meta = document.head.querySelector('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.setAttribute('name', 'description');
      document.head.append(meta);
    }
    meta.setAttribute('content', description);
    document.head.querySelector('meta[property="og:title"]')?.setAttribute('content', title);
    document.head.querySelector('meta[property="og:description"]')?.setAttribute('content', description);
  }, [pathname]);
  return null;
}
