import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { ADMIN_ROLES, authApi, type Role } from '@ruilplein/contracts/browser';
import { request, verifyStoredSession } from './client.ts';
import { fetchAmountOfTrades } from './offers.ts';
import { onSessionToken, sessionToken, setSessionToken } from './token.ts';

/** The copy of the member the browser keeps (spec 1 §3, "User (session copy)"). */
export interface SessionUser {
  id: string;
  role: Role | Role[];
  firstName: string;
  profilePicture?: string;
  /** True when absent. */
  activated?: boolean;
  subscriptionEndsAt?: string | null;
}

export interface Session {
  user: SessionUser | null;
  token: string | null;
  /** True while a stored token is being verified at start. */
  loading: boolean;
  /** Trade offers made today. */
  amountOfTrades: number;
  isAuthenticated: boolean;
  isActivated: boolean;
  /** Beheerder or Moderator (spec 1 §6). */
  isAdmin: boolean;
  /** Admins, role Premium, or a subscription that has not ended (spec 1 §6). */
  isPremium: boolean;
  /** After a successful login: keeps token and user and fetches today's offer count. */
  signIn(token: string, user: SessionUser): void;
  setUser(user: SessionUser): void;
  setAmountOfTrades(count: number): void;
  /** Forgets token and user in this browser only. */
  signOut(): void;
  /** Revokes the token at the server (all of this member's tokens), then forgets it here, whatever the server answered. */
  logout(): Promise<void>;
}

const userKey = 'ruilplein.user';

/** The session copy of a user record the server sent: only the fields the browser keeps (no email, no coordinates). */
export function sessionUserOf(user: SessionUser): SessionUser {
  const { id, role, firstName, profilePicture, activated, subscriptionEndsAt } = user;
  return { id, role, firstName, profilePicture, activated, subscriptionEndsAt };
}

function stored<T>(key: string, parse: (raw: string) => T): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : parse(raw);
  } catch {
    return null; // unreadable storage (blocked, or a corrupt entry) means no session
  }
}

function store(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // The session still works for this page; it is just not remembered.
  }
}

const roles = (user: SessionUser | null): Role[] => (user ? (Array.isArray(user.role) ? user.role : [user.role]) : []);

const SessionContext = createContext<Session | null>(null);

/**
 * Keeps user and token in localStorage (spec 1 §4; the token through token.ts, which the API client
 * renews). A stored token is checked at start with GET /api/auth/verify, after renewing it when it
 * has expired, then today's offer count is fetched; a failed check signs out. `loading` stays true
 * until both are done. A session the client could not renew ends here too.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState(() => stored<SessionUser>(userKey, JSON.parse));
  const token = useSyncExternalStore(onSessionToken, sessionToken, () => null);
  const [amountOfTrades, setAmountOfTrades] = useState(0);
  const [loading, setLoading] = useState(() => Boolean(token));

  useEffect(() => store(userKey, user && JSON.stringify(user)), [user]);

  const signOut = useCallback(() => {
    setUser(null);
    setSessionToken(null);
    setAmountOfTrades(0);
  }, []);

  // Another tab signed in or out: token.ts follows the token, this the user that goes with it.
  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.key === userKey || event.key === null) setUser(event.key === null ? null : stored<SessionUser>(userKey, JSON.parse));
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, []);

  // The token went: refused renewal, or signed out in another tab.
  useEffect(() => {
    if (!token && !loading) {
      setUser(null);
      setAmountOfTrades(0);
    }
  }, [token, loading]);

  // Once, at start: tokens set later by signIn come straight from the server.
  useEffect(() => {
    if (!token) return;
    let current = true;
    (async () => {
      let userId = user?.id;
      try {
        const answer = await verifyStoredSession();
        if (!current) return;
        if (answer?.user?.id) {
          setUser(sessionUserOf(answer.user));
          userId = answer.user.id;
        }
      } catch (err) {
        console.warn('Token invalid or expired', err);
        if (current) signOut();
        return;
      }
      if (!userId) return;
      const count = await fetchAmountOfTrades(userId);
      if (current) setAmountOfTrades(count);
    })().finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, []);

  const logout = useCallback(async () => {
    // Also clears the refresh cookie.
    if (sessionToken()) await request(authApi.logout).catch((err: unknown) => console.warn('Uitloggen bij de server mislukt', err));
    signOut();
  }, [signOut]);

  const session = useMemo<Session>(() => {
    const held = roles(user);
    const isAdmin = held.some((role) => ADMIN_ROLES.includes(role));
    const subscribed = Boolean(user?.subscriptionEndsAt && new Date(user.subscriptionEndsAt).getTime() > Date.now());
    return {
      user,
      token,
      loading,
      amountOfTrades,
      isAuthenticated: Boolean(user && token),
      isActivated: user?.activated ?? true,
      isAdmin,
      isPremium: isAdmin || held.includes('Premium') || subscribed,
      signIn(newToken, newUser) {
        setSessionToken(newToken);
        setUser(sessionUserOf(newUser));
        void fetchAmountOfTrades(newUser.id).then(setAmountOfTrades);
      },
      setUser: (next) => setUser(sessionUserOf(next)),
      setAmountOfTrades,
      signOut,
      logout,
    };
  }, [user, token, loading, amountOfTrades, signOut, logout]);
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it');
  return session;
}
