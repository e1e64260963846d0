import type { HTMLAttributes, ReactNode } from 'react';
import { buttonClass } from './button.ts';
import * as styles from './layout.module.css';

/** A page in the dashboard or admin area: its heading and its content. */
export function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.page}>
      <h1>{title}</h1>
      {children}
    </section>
  );
}

export function Spinner({ label = 'Laden…' }: { label?: string }) {
  return (
    <div className={styles.spinner} role="status">
      <span className={styles.wheel} aria-hidden="true" />
      {label}
    </div>
  );
}

/** A failure in Dutch, with a retry button when there is something to retry. */
export function ErrorMessage({ message, onRetry, ...rest }: { message: string; onRetry?: () => void } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div role="alert" {...rest} className={rest.className ? `${styles.error} ${rest.className}` : styles.error}>
      <p>{message}</p>
      {onRetry && (
        <button type="button" className={buttonClass()} onClick={onRetry}>
          Opnieuw proberen
        </button>
      )}
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className={styles.empty}>{children}</p>;
}
