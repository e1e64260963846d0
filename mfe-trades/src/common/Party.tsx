import { Link } from 'react-router-dom';
import { DEFAULT_AVATAR, type OfferParty } from '@ruilplein/contracts/browser';
import * as styles from './Party.module.css';

/** A party of an offer: picture and full name, linking to their public profile. */
export function Party({ party }: { party: OfferParty }) {
  return (
    <span className={styles.party}>
      {/* Decorative: the name beside it says who it is. */}
      <img className={styles.avatar} src={party.profilePicture || DEFAULT_AVATAR} alt="" width={36} height={36} loading="lazy" />
      <Link to={`/dashboard/user/${encodeURIComponent(party.id)}`} className={styles.name}>
        {party.firstName} {party.lastName}
      </Link>
    </span>
  );
}
