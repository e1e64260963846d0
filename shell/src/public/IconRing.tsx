import type { CSSProperties } from 'react';
import { Baby, Bike, BookOpen, Dumbbell, Flower2, Laptop, Music, Palette, Puzzle, Recycle, Shirt, Sofa, Wrench } from 'lucide-react';
import { useHydrated } from '@ruilplein/ui';
import * as styles from './IconRing.module.css';

// Category icons as the listings remote draws them (lucide), imported one by one so only these ship.
const ringIcons = [Laptop, Shirt, BookOpen, Sofa, Flower2, Bike, Puzzle, Wrench, Music, Palette, Baby, Dumbbell];

/**
 * The landing graphic (spec 1 §2, "Landing graphics"): category icons on a slowly spinning ring
 * around a central reuse icon. Each icon turns back as the ring turns, so it stays upright; CSS
 * stops both for visitors who prefer reduced motion. Decorative: the page says the same in words.
 */
export function IconRing() {
  // The CSP allows no style attribute in HTML (style-src 'self'): the prerendered ring shows its
  // centre, and the icons take their places once React sets their angles through the CSSOM.
  const hydrated = useHydrated();
  return (
    <div className={styles.ring} aria-hidden="true">
      <div className={styles.orbit} data-testid="icon-ring-orbit">
        {ringIcons.map((Icon, i) => (
          <span key={i} className={styles.slot} style={hydrated ? ({ '--angle': `${(360 / ringIcons.length) * i}deg` } as CSSProperties) : undefined}>
            <span className={styles.icon}>
              <Icon size={26} strokeWidth={1.75} />
            </span>
          </span>
        ))}
      </div>
      <span className={styles.center} data-testid="icon-ring-center">
        <Recycle size={72} strokeWidth={1.5} />
      </span>
    </div>
  );
}
