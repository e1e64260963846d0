import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ChevronLeft, ChevronRight, Maximize2, X } from 'lucide-react';
import * as styles from './PhotoCarousel.module.css';

export interface CarouselPhoto {
  src: string;
  alt: string;
}

/** 'x / n' (the detail page) or 'Afbeelding x van n' (the form's preview). */
export type CarouselCounter = 'slash' | 'words';

const counterText = (counter: CarouselCounter, index: number, total: number) =>
  counter === 'words' ? `Afbeelding ${index + 1} van ${total}` : `${index + 1} / ${total}`;

/**
 * One photo at a time with Vorige/Volgende (wrapping at both ends), the arrow keys and a counter;
 * 'Volledig scherm' opens the same photo in a modal <dialog>, which Escape closes, after which the
 * focus is back on the button that opened it. Nothing is shown without photos.
 */
export function PhotoCarousel({ photos, counter = 'slash' }: { photos: CarouselPhoto[]; counter?: CarouselCounter }) {
  const [chosen, setChosen] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const closer = useRef<HTMLButtonElement>(null);
  const labelId = useId();
  const total = photos.length;
  // Other photos (chosen again, another listing) start at the first one.
  const key = photos.map((photo) => photo.src).join('\n');
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setChosen(0);
  }
  const index = total === 0 ? 0 : Math.min(chosen, total - 1);

  useEffect(() => {
    const element = dialog.current;
    if (!fullScreen || !element || element.open) return;
    element.showModal();
    closer.current?.focus();
  }, [fullScreen]);

  if (total === 0) return null;
  const photo = photos[index]!;
  const several = total > 1;
  const move = (step: number) => setChosen((index + step + total) % total);
  const onKeyDown = (event: KeyboardEvent) => {
    if (!several || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    event.preventDefault(); // the page does not scroll sideways as well
    move(event.key === 'ArrowLeft' ? -1 : 1);
  };
  // Every way out (Sluiten, Escape) ends in the dialog's 'close' event.
  const closed = () => {
    setFullScreen(false);
    opener.current?.focus();
  };
  const text = counterText(counter, index, total);

  const arrows = several && (
    <>
      <button type="button" className={`${styles.arrow} ${styles.previous}`} aria-label="Vorige afbeelding" onClick={() => move(-1)}>
        <ChevronLeft aria-hidden="true" size={24} />
      </button>
      <button type="button" className={`${styles.arrow} ${styles.next}`} aria-label="Volgende afbeelding" onClick={() => move(1)}>
        <ChevronRight aria-hidden="true" size={24} />
      </button>
    </>
  );

  return (
    <div className={styles.carousel} role="group" aria-roledescription="carrousel" aria-labelledby={labelId} onKeyDown={onKeyDown} data-testid="photo-carousel">
      <div className={styles.stage}>
        <img className={styles.photo} src={photo.src} alt={photo.alt} data-testid="carousel-photo" />
        {arrows}
      </div>
      <div className={styles.bar}>
        <span id={labelId} className={styles.counter} aria-live="polite" data-testid="carousel-counter">
          {text}
        </span>
        <button ref={opener} type="button" className={styles.fullScreenButton} onClick={() => setFullScreen(true)}>
          <Maximize2 aria-hidden="true" size={18} />
          Volledig scherm
        </button>
      </div>
      {/* Inside the group, so the arrow keys work here too; Escape closes a modal dialog natively. */}
      <dialog ref={dialog} className={styles.viewer} aria-label={`${photo.alt}, ${text}`} onClose={closed}>
        {fullScreen && (
          <>
            <div className={styles.viewerStage}>
              <img className={styles.viewerPhoto} src={photo.src} alt={photo.alt} />
              {arrows}
            </div>
            <div className={styles.viewerBar}>
              <span className={styles.viewerCounter} aria-live="polite">
                {text}
              </span>
              <button ref={closer} type="button" className={styles.closeButton} onClick={() => dialog.current?.close()}>
                <X aria-hidden="true" size={20} />
                Sluiten
              </button>
            </div>
          </>
        )}
      </dialog>
    </div>
  );
}
