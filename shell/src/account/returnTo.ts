// Where the login form goes afterwards: back to what a guest asked for (the landing page's search
// box sends them here with it), but only to a page of the dashboard on this site.

/** The address parameter that carries it: `/login?next=%2Fdashboard%2Fsearch%3Fq%3Dfiets`. */
export const RETURN_PARAM = 'next';

const DASHBOARD = '/dashboard';

/** The path to go to after logging in: `raw` when it is a dashboard path of this site, else the dashboard. */
export function returnPath(raw: string | null): string {
  if (!raw || raw.length > 500) return DASHBOARD;
  // A path of this origin only: no scheme, no '//host', no backslash tricks.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return DASHBOARD;
  const url = new URL(raw, 'https://ruilplein.invalid');
  if (url.origin !== 'https://ruilplein.invalid') return DASHBOARD;
  const inside = url.pathname === DASHBOARD || url.pathname.startsWith(`${DASHBOARD}/`);
  return inside ? `${url.pathname}${url.search}` : DASHBOARD;
}

/** The login address that comes back to `path` afterwards. */
export const loginReturningTo = (path: string): string => `/login?${new URLSearchParams({ [RETURN_PARAM]: path })}`;
