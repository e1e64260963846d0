import type { ReactNode } from 'react';

/** A form's outcome: green and read out politely when it worked, red and announced at once when not. */
export function FormNotice({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <p className={ok ? 'form-success' : 'form-error'} role={ok ? 'status' : 'alert'}>
      {children}
    </p>
  );
}
