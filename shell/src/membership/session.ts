import { userApi } from '@ruilplein/contracts/browser';
import { request, type Session } from '@ruilplein/ui';

/** Reads the member's record again and keeps it as the session's (role and subscription end may have changed). */
export async function reloadUser(session: Pick<Session, 'setUser'>): Promise<void> {
  const user = await request(userApi.my);
  session.setUser({ ...user, role: user.role });
}
