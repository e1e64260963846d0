import { Recycle } from 'lucide-react';

/** The product's word mark with the reuse icon. */
export function Logo() {
  return (
    <>
      <Recycle aria-hidden="true" size={26} strokeWidth={2.25} />
      Ruilplein
    </>
  );
}
