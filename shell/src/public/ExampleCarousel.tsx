import { useId, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import {
  Archive, Baby, Backpack, BookOpen, ChevronLeft, ChevronRight, Coffee, Dumbbell, Gamepad2, Laptop, Palette, PlayingCards,
  Shirt, Sprout, WashingMachine, Watch, type LucideIcon,
} from 'lucide-react';
import { exampleItems, keyStep, swipeStep, wrapIndex, type ExampleItemId } from './carousel.ts';
import { useHydrated } from '@ruilplein/ui';
import * as styles from './ExampleCarousel.module.css';

// Our own pictures: an icon of the category on a tile of its own colour (nothing loaded from elsewhere).
const pictures: Record<ExampleItemId, { icon: LucideIcon; tone: string }> = {
  1: { icon: Laptop, tone: '#2f6fb0' },
  2: { icon: Sprout, tone: '#2e8b57' },
  3: { icon: BookOpen, tone: '#8a5a2b' },
  4: { icon: Gamepad2, tone: '#6b4bb8' },
  5: { icon: Shirt, tone: '#c0508a' },
  6: { icon: Backpack, tone: '#b8702a' },
  7: { icon: Coffee, tone: '#6f4e37' },
  8: { icon: PlayingCards, tone: '#c9a227' },
  9: { icon: Watch, tone: '#3d4f5c' },
  10: { icon: WashingMachine, tone: '#3b8ea5' },
  11: { icon: Archive, tone: '#9c6b3f' },
  12: { icon: Palette, tone: '#d0563b' },
  13: { icon: Baby, tone: '#e08a2e' },
  14: { icon: Dumbbell, tone: '#1f7a4d' },
};

/**
 * 'Voorbeeld Items' (spec 1 §2): one example category at a time. Vorige/Volgende wrap around at both
 * ends; a swipe or mouse drag to the left or right and the arrow keys move it too.
 */
export function ExampleCarousel() {
  const [index, setIndex] = useState(0);
  const start = useRef<{ pointer: number; x: number; y: number } | null>(null);
  const titleId = useId();
  // No style attribute in prerendered HTML (the CSP refuses it): the tile's colour is set after hydration.
  const hydrated = useHydrated();
  const item = exampleItems[index]!;
  const { icon: Icon, tone } = pictures[item.id];

  const move = (step: number) => {
    if (step !== 0) setIndex((current) => wrapIndex(current, step, exampleItems.length));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const step = keyStep(event.key);
    if (step === 0) return;
    event.preventDefault(); // no horizontal scrolling of the page as well
    move(step);
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    start.current = { pointer: event.pointerId, x: event.clientX, y: event.clientY };
    // The release counts even when the pointer leaves the picture while dragging.
    event.currentTarget.setPointerCapture(event.pointerId);
  };

  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    const from = start.current;
    start.current = null;
    if (from?.pointer === event.pointerId) move(swipeStep(event.clientX - from.x, event.clientY - from.y));
  };

  return (
    <section className={styles.carousel} aria-roledescription="carrousel" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <h2 id={titleId}>Voorbeeld Items</h2>
      <p className={styles.intro}>Een greep uit wat buren met elkaar ruilen. Veeg, sleep of gebruik de pijltjestoetsen.</p>
      <div className={styles.body}>
        <button type="button" className={styles.arrow} aria-label="Vorige" onClick={() => move(-1)}>
          <ChevronLeft aria-hidden="true" size={28} />
        </button>
        <figure
          className={styles.stage}
          data-testid="carousel-stage"
          tabIndex={0}
          aria-label={`Voorbeeld ${index + 1} van ${exampleItems.length}`}
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            start.current = null;
          }}
        >
          <div className={styles.picture} style={hydrated ? ({ '--tone': tone } as CSSProperties) : undefined} role="img" aria-label={`Illustratie: ${item.caption}`}>
            <Icon aria-hidden="true" size={112} strokeWidth={1.4} />
          </div>
          <figcaption aria-live="polite" data-testid="carousel-caption">
            {item.caption}
          </figcaption>
        </figure>
        <button type="button" className={styles.arrow} aria-label="Volgende" onClick={() => move(1)}>
          <ChevronRight aria-hidden="true" size={28} />
        </button>
      </div>
      <p className={styles.count} aria-hidden="true">
        {index + 1} / {exampleItems.length}
      </p>
    </section>
  );
}
