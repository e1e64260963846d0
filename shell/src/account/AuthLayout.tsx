import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Armchair, BookOpen, Book, Headphones, Radio, Recycle, Shirt, Sofa, type LucideIcon } from 'lucide-react';
import { useHydrated } from '@ruilplein/ui';
import * as logo from '../public/Logo.module.css';
import * as styles from './AuthLayout.module.css';

// Old items becoming new ones (spec 1 §2, "Landing graphics"): the old one shows, turns, the new one shows.
const pairs: [old: LucideIcon, renewed: LucideIcon][] = [
  [Radio, Headphones],
  [Armchair, Sofa],
  [Book, BookOpen],
  [Shirt, Shirt],
];
const phases = [
  ['old', 1200],
  ['turning', 1200],
  ['new', 800],
] as const;

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

function SwapAnimation() {
  const [step, setStep] = useState(0);
  // The prerendered page moves: which visitors prefer it still is known after hydration.
  const still = useHydrated() && reducedMotion();
  useEffect(() => {
    if (still) return;
    const timer = setTimeout(() => setStep((s) => s + 1), phases[step % phases.length]![1]);
    return () => clearTimeout(timer);
  }, [step, still]);
  const [OldItem, NewItem] = pairs[Math.floor(step / phases.length) % pairs.length]!;
  const phase = still ? 'new' : phases[step % phases.length]![0];
  const Item = phase === 'new' ? NewItem : OldItem;
  return (
    <div className={styles.swap} aria-hidden="true" data-testid="swap-animation" data-phase={phase}>
      <Item className={styles.item} size={72} strokeWidth={1.5} />
      <Recycle className={styles.arrow} size={32} />
    </div>
  );
}

/** Login and registration: the card beside the animation, without the public header and footer. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className={styles.screen}>
      <div className={styles.withArt}>
        <div className={styles.art}>
          <Link to="/" className={logo.logo}>
            Ruilplein
          </Link>
          <SwapAnimation />
          <p>Geef je spullen een tweede leven.</p>
        </div>
        <section>
          <h1>{title}</h1>
          {children}
        </section>
      </div>
    </main>
  );
}

/** The other account screens: one card, without the public header and footer. */
export function AuthPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className={styles.screen}>
      <section className={styles.card}>
        <Link to="/" className={logo.logo}>
          Ruilplein
        </Link>
        <h1>{title}</h1>
        {children}
      </section>
    </main>
  );
}
