import { useSession } from '@ruilplein/ui';
import * as styles from './membership.module.css';

/** The Premium badge (spec 1 §6) for a member who is Premium now. */
export function PremiumBadge() {
  const { isPremium } = useSession();
  if (!isPremium) return null;
  return (
    <span className={styles.badge} data-testid="premium-badge">
      Premium
    </span>
  );
}
