import type { ReactNode } from 'react';
import * as styles from './form.module.css';

/** A form's outcome: green and read out politely when it worked, red and announced at once when not. */
export function FormNotice({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <p className={ok ? styles.success : styles.error} role={ok ? 'status' : 'alert'} data-testid={ok ? 'form-success' : 'form-error'}>
      {children}
    </p>
  );
}
