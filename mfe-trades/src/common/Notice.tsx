import * as styles from './Notice.module.css';

export interface NoticeValue {
  ok: boolean;
  message: string;
}

/**
 * The outcome of an action: both live regions stay on the page, so a message put in one is read
 * out (politely when it worked, at once when not).
 */
export function Notice({ notice, testId = 'notice' }: { notice: NoticeValue | null; testId?: string }) {
  return (
    <>
      <div role="status" className={styles.region}>
        {notice?.ok && (
          <p className={styles.success} data-testid={`${testId}-success`}>
            {notice.message}
          </p>
        )}
      </div>
      <div role="alert" className={styles.region}>
        {notice && !notice.ok && (
          <p className={styles.error} data-testid={`${testId}-error`}>
            {notice.message}
          </p>
        )}
      </div>
    </>
  );
}
