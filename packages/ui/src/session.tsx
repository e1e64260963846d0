import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { authApi, hasAdminRole, isPremiumAt, type Role } from '@ruilplein/contracts/browser';
import { request, verifyStoredSession } from './client.ts';
import { useHydrated } from './hydrated.ts';
import { offerCountQuery } from './offers.ts';
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
  /** Trade offers made today (0 until known: it is fetched after the session, never holding it up). */
  amountOfTrades: number;
  isAuthenticated: boolean;
  isActivated: boolean;
  /** Beheerder or Moderator (spec 1 §6). */
  isAdmin: boolean;
  /** Admins, role Premium, or a subscription that has not ended (spec 1 §6). */
  isPremium: boolean;
  /** After a successful login: keeps token and user; today's offer count follows by itself. */
  signIn(token: string, user: SessionUser): void;
  setUser(user: SessionUser): void;
  /** After making an offer: the count as the server now has it (or one more, until it is asked again); written into the count's one query. */
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

function readStoredUser(): SessionUser | null {
  try {
    const raw = localStorage.getItem(userKey);
    return raw === null ? null : (JSON.parse(raw) as SessionUser);
  } catch {
    return null; // unreadable storage (blocked, or a corrupt entry) means no session
  }
}

// The stored user, kept like the token (token.ts): one copy per page that React reads with
// useSyncExternalStore, so hydrating a prerendered page first renders the server's guest.
let storedUser: SessionUser | null | undefined; // undefined: storage not read yet
const userListeners = new Set<() => void>();

function currentUser(): SessionUser | null {
  if (storedUser === undefined) storedUser = readStoredUser();
  return storedUser;
}

function onUser(listener: () => void): () => void {
  userListeners.add(listener);
  return () => userListeners.delete(listener);
}

function setStoredUser(next: SessionUser | null, remember = true) {
  storedUser = next;
  if (remember) {
    try {
      if (next === null) localStorage.removeItem(userKey);
      else localStorage.setItem(userKey, JSON.stringify(next));
    } catch {
      // The session still works for this page; it is just not remembered.
    }
  }
  for (const listener of userListeners) listener();
}

// Another tab signed in or out: token.ts follows the token, this the user that goes with it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === userKey || event.key === null) setStoredUser(event.key === null ? null : readStoredUser(), false);
  });
}

const roles = (user: SessionUser | null): Role[] => (user ? (Array.isArray(user.role) ? user.role : [user.role]) : []);

const SessionContext = createContext<Session | null>(null);

/**
 * Keeps user and token in localStorage (spec 1 §4; the token through token.ts, which the API client
 * renews). A stored token is checked at start with GET /api/auth/verify, after renewing it when it
 * has expired; a failed check signs out. `loading` is true only until that check is done: today's
 * offer count is a query of its own, asked for the session's member once the session is known
 * (the trade service being slow or down never holds up the start). A session the client could not
 * renew ends here too. Needs the shell's QueryClientProvider above it: signing out empties the
 * cache, so the next member never sees the last one's data.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queries = useQueryClient();
  // The server renders a guest: a prerendered page is hydrated as one, the stored session follows.
  const hydrated = useHydrated();
  const user = useSyncExternalStore(onUser, currentUser, () => null);
  const token = useSyncExternalStore(onSessionToken, sessionToken, () => null);
  // Only a token stored before this page started needs the check; without one there is nothing to wait for.
  const [checked, setChecked] = useState(() => !sessionToken());
  const loading = hydrated && !checked && Boolean(token);
  const signedIn = Boolean(user && token) && !loading;
  const userId = user?.id;
  const trades = useQuery({ ...offerCountQuery(userId ?? ''), enabled: signedIn && Boolean(userId) });
  const amountOfTrades = signedIn ? (trades.data?.count ?? 0) : 0;
  const setAmountOfTrades = useCallback(
    (count: number) => {
      // Not known yet: nothing to correct, the query's own answer will have it.
      if (userId) queries.setQueryData(offerCountQuery(userId).queryKey, (known) => known && { ...known, count });
    },
    [queries, userId],
  );

  // The moment Premium is judged at: the page's start, then each time a paid period runs out, so
  // isPremium turns false at the end of it without a reload. (The browser's own time: the platform
  // clock's offset, RUILPLEIN_CLOCK_FILE, lives in the services only.)
  const [now, setNow] = useState(() => Date.now());
  const premiumEnds = user?.subscriptionEndsAt ? Date.parse(user.subscriptionEndsAt) : Number.NaN;
  useEffect(() => {
    if (!Number.isFinite(premiumEnds) || premiumEnds <= now) return;
    // setTimeout holds at most 2^31-1 ms (24.8 days): a later end is looked at again then.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(Math.max(premiumEnds - Date.now(), 0) + 1, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [premiumEnds, now]);

  const signOut = useCallback(() => {
    setStoredUser(null);
    setSessionToken(null);
    queries.clear();
  }, [queries]);

  // The token went: refused renewal, or signed out in another tab. Only a token that was there
  // empties the cache: a guest's own queries (an activation link being checked) must stay.
  const hadToken = useRef(false);
  useEffect(() => {
    if (token) {
      hadToken.current = true;
      return;
    }
    if (!hydrated || loading) return;
    if (currentUser()) setStoredUser(null);
    if (hadToken.current) {
      hadToken.current = false;
      queries.clear();
    }
  }, [hydrated, token, loading, queries]);

  // Once, at start (after hydration): tokens set later by signIn come straight from the server.
  useEffect(() => {
    if (!hydrated || checked) return;
    let current = true;
    (async () => {
      try {
        const answer = await verifyStoredSession();
        if (current && answer?.user?.id) setStoredUser(sessionUserOf(answer.user));
      } catch (err) {
        console.warn('Token invalid or expired', err);
        if (current) signOut();
      }
    })().finally(() => current && setChecked(true));
    return () => {
      current = false;
    };
  }, [hydrated, checked, signOut]);

  const logout = useCallback(async () => {
    // Also clears the refresh cookie.
    if (sessionToken()) await request(authApi.logout).catch((err: unknown) => console.warn('Uitloggen bij de server mislukt', err));
    signOut();
  }, [signOut]);

  const session = useMemo<Session>(() => {
    const rights = user && { roles: roles(user), subscriptionEndsAt: user.subscriptionEndsAt };
    return {
      user,
      token,
      loading,
      amountOfTrades,
      isAuthenticated: Boolean(user && token),
      isActivated: user?.activated ?? true,
      isAdmin: hasAdminRole(rights),
      isPremium: isPremiumAt(rights, now),
      signIn(newToken, newUser) {
        queries.clear();
        setSessionToken(newToken);
        setStoredUser(sessionUserOf(newUser));
      },
      setUser: (next) => setStoredUser(sessionUserOf(next)),
      setAmountOfTrades,
      signOut,
      logout,
    };
  }, [user, token, loading, amountOfTrades, now, setAmountOfTrades, signOut, logout, queries]);
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it');
  return session;
}
