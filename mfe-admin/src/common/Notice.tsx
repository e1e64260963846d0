import * as styles from './admin.module.css';

/** What an action did (spec 2 §8's alerts: 'Gebruiker geband.', 'Ban mislukt'…), announced to screen readers. */
export interface NoticeState {
  ok: boolean;
  text: string;
}

export function Notice({ notice }: { notice: NoticeState | null }) {
  if (!notice) return null;
  return (
    <p role={notice.ok ? 'status' : 'alert'} className={notice.ok ? styles.notice : styles.failed}>
      {notice.text}
    </p>
  );
}

/** 'Ban mislukt: <server message>' — the spec's word, then why. */
export const failed = (what: string, err: unknown) => `${what}${err instanceof Error && err.message ? `: ${err.message}` : ''}`;
