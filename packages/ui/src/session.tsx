import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Role } from '@ruilplein/contracts';

/** The copy of the member the browser keeps (spec 1 §3, "User (session copy)"). */
export interface SessionUser {
  id: string;
  role: Role | Role[];
  firstName: string;
  profilePicture?: string;
  /** True when absent. */
  activated?: boolean;
  subscriptionEndsAt?: string;
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
  signIn(token: string, user: SessionUser): void;
  setUser(user: SessionUser): void;
  setAmountOfTrades(count: number): void;
  signOut(): void;
}

/** What checking a stored token at start yields: the fresh user (if the server sends one) and today's offer count. */
export interface VerifiedSession {
  user?: SessionUser;
  amountOfTrades: number;
}

const userKey = 'ruilplein.user';
const tokenKey = 'ruilplein.token';

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

const SessionContext = createContext<Session | null>(null);

/**
 * Keeps user and token in localStorage (spec 1 §4). `verify` checks a stored token at start; the
 * accounts work passes it (GET /api/auth/verify, then the day's offer count). A failed check signs out.
 */
export function SessionProvider({ children, verify }: { children: ReactNode; verify?: (token: string) => Promise<VerifiedSession> }) {
  const [user, setUser] = useState(() => stored<SessionUser>(userKey, JSON.parse));
  const [token, setToken] = useState(() => stored(tokenKey, String));
  const [amountOfTrades, setAmountOfTrades] = useState(0);
  const [loading, setLoading] = useState(() => Boolean(verify && token));

  useEffect(() => store(userKey, user && JSON.stringify(user)), [user]);
  useEffect(() => store(tokenKey, token), [token]);

  const signOut = useCallback(() => {
    setUser(null);
    setToken(null);
    setAmountOfTrades(0);
  }, []);

  // Once, at start: tokens set later by signIn come straight from the server.
  useEffect(() => {
    if (!verify || !token) return;
    let current = true;
    verify(token)
      .then((result) => {
        if (!current) return;
        if (result.user) setUser(result.user);
        setAmountOfTrades(result.amountOfTrades);
      })
      .catch((err: unknown) => {
        console.warn('Token invalid or expired', err);
        if (current) signOut();
      })
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, []);

  const session = useMemo<Session>(
    () => ({
      user,
      token,
      loading,
      amountOfTrades,
      isAuthenticated: Boolean(user && token),
      isActivated: user?.activated ?? true,
      signIn(newToken, newUser) {
        setToken(newToken);
        setUser(newUser);
      },
      setUser,
      setAmountOfTrades,
      signOut,
    }),
    [user, token, loading, amountOfTrades, signOut],
  );
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it');
  return session;
}
