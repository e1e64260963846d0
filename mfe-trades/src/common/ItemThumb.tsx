import type { OfferItem } from '@ruilplein/contracts/browser';
import * as styles from './ItemThumb.module.css';

/** An item's picture (decorative: its title is always beside it), or a drawn stand-in without one. */
export function ItemThumb({ item, size = 'small' }: { item: Pick<OfferItem, 'thumbnailUrl' | 'imageUrl'>; size?: 'small' | 'large' }) {
  const src = item.thumbnailUrl || item.imageUrl;
  const className = size === 'large' ? styles.large : styles.small;
  if (!src)
    return (
      <span className={`${className} ${styles.none}`} aria-hidden="true">
        ?
      </span>
    );
  return <img className={className} src={src} alt="" loading="lazy" decoding="async" />;
}
