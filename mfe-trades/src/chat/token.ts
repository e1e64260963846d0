/** Whether a JWT's `exp` falls within `ms` from now (unreadable: assume it is fine; the server decides). */
export function expiresWithin(jwt: string, ms: number, now = Date.now()): boolean {
  const payload = jwt.split('.')[1];
  if (!payload) return false;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const exp: unknown = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && exp * 1000 - now < ms;
  } catch {
    return false;
  }
}
