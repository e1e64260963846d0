import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Armchair, BookOpen, Book, Headphones, Radio, Recycle, Shirt, Sofa, type LucideIcon } from 'lucide-react';
import './account.css';

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
  const [still] = useState(reducedMotion);
  useEffect(() => {
    if (still) return;
    const timer = setTimeout(() => setStep((s) => s + 1), phases[step % phases.length]![1]);
    return () => clearTimeout(timer);
  }, [step, still]);
  const [OldItem, NewItem] = pairs[Math.floor(step / phases.length) % pairs.length]!;
  const phase = still ? 'new' : phases[step % phases.length]![0];
  const Item = phase === 'new' ? NewItem : OldItem;
  return (
    <div className={`swap-animation ${phase}`} aria-hidden="true" data-testid="swap-animation" data-phase={phase}>
      <Item className="swap-item" size={72} strokeWidth={1.5} />
      <Recycle className="swap-arrow" size={32} />
    </div>
  );
}

/** Login and registration: the card beside the animation, without the public header and footer. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-screen">
      <div className="auth-card with-art">
        <div className="auth-art">
          <Link to="/" className="logo">
            Ruilplein
          </Link>
          <SwapAnimation />
          <p>Geef je spullen een tweede leven.</p>
        </div>
        <section className="auth-form">
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
    <main className="auth-screen">
      <section className="auth-card auth-form">
        <Link to="/" className="logo">
          Ruilplein
        </Link>
        <h1>{title}</h1>
        {children}
      </section>
    </main>
  );
}
