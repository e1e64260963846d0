import { useEffect, useId, useRef, useState, type FocusEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ChevronDown, LayoutDashboard, LogIn, LogOut, UserPlus, UserRound } from 'lucide-react';
import { useSession } from '@ruilplein/ui';
import * as styles from './AccountMenu.module.css';
import { defaultAvatar } from './site.ts';

/**
 * The account button of the navigation bar: profile picture and first name ('Gast' for guests),
 * opening a dropdown (guests: Inloggen, Registreren; members: Dashboard, Uitloggen). It closes on a
 * click outside, on Escape (focus back on the button), when focus leaves it and on every route change.
 */
export function AccountMenu() {
  const { user, isAuthenticated, logout } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // Open on the page where it was opened only, so navigating (a link, the back button) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    // Tabbing past the last entry closes it; a click inside keeps focus inside or on the body.
    if (event.relatedTarget && !event.currentTarget.contains(event.relatedTarget)) setOpenOn(null);
  };

  const signedIn = isAuthenticated && user;
  const name = signedIn ? user.firstName : 'Gast';
  return (
    <div className={styles.menu} ref={root} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className={styles.button}
        data-testid="account-button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        <Avatar src={(signedIn && user.profilePicture) || defaultAvatar} />
        <span className={styles.name}>{name}</span>
        <ChevronDown aria-hidden="true" size={16} />
      </button>
      <div id={menuId} className={styles.dropdown} data-testid="account-dropdown" hidden={!open}>
        {signedIn ? (
          <>
            <Link to="/dashboard">
              <LayoutDashboard aria-hidden="true" size={18} /> Dashboard
            </Link>
            <button
              type="button"
              onClick={() => {
                setOpenOn(null);
                void logout();
                navigate('/');
              }}
            >
              <LogOut aria-hidden="true" size={18} /> Uitloggen
            </button>
          </>
        ) : (
          <>
            <Link to="/login">
              <LogIn aria-hidden="true" size={18} /> Inloggen
            </Link>
            <Link to="/register">
              <UserPlus aria-hidden="true" size={18} /> Registreren
            </Link>
          </>
        )}
      </div>
    </div>
  );
}

/** The round profile picture; a person icon when it cannot be loaded. */
function Avatar({ src }: { src: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (failedSrc === src) return <UserRound className={`${styles.avatar} ${styles.fallback}`} aria-hidden="true" size={32} />;
  return <img className={styles.avatar} src={src} alt="" width={32} height={32} onError={() => setFailedSrc(src)} />;
}
