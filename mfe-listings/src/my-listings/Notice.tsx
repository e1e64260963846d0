import * as styles from './Notice.module.css';

export interface NoticeValue {
  ok: boolean;
  message: string;
}

/**
 * The outcome of an action: both live regions stay on the page, so a message put in one is read
 * out (politely when it worked, at once when not).
 */
export function Notice({ notice }: { notice: NoticeValue | null }) {
  return (
    <>
      <div role="status" className={styles.region}>
        {notice?.ok && (
          <p className={styles.success} data-testid="notice-success">
            {notice.message}
          </p>
        )}
      </div>
      <div role="alert" className={styles.region}>
        {notice && !notice.ok && (
          <p className={styles.error} data-testid="notice-error">
            {notice.message}
          </p>
        )}
      </div>
    </>
  );
}
