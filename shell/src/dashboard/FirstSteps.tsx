// 'Je eerste stappen' on /dashboard (issue 27): a short checklist for a new member, each step read
// from what the API already answers (the member's own record, listings and wishlist), shown until
// every step is done. It is help, not a page of its own: while loading or after a failed read it
// stays away rather than show a step wrongly open.
import { Link } from 'react-router-dom';
import { Circle, CircleCheck } from 'lucide-react';
import { DEFAULT_AVATAR, listingApi, userApi, wishlistApi } from '@ruilplein/contracts/browser';
import { useApi } from '@ruilplein/ui';
import * as styles from './Home.module.css';

interface Step {
  key: string;
  label: string;
  done: boolean;
  to: string;
  action: string;
}

export function FirstSteps() {
  const me = useApi(userApi.my);
  const listings = useApi(listingApi.my);
  const wishes = useApi(wishlistApi.my);
  if (!me.data || !listings.data || !wishes.data) return null;
  const steps: Step[] = [
    { key: 'photo', label: 'Voeg een profielfoto toe', done: Boolean(me.data.profilePicture) && me.data.profilePicture !== DEFAULT_AVATAR, to: '/dashboard/profile', action: 'Naar je profiel' },
    {
      key: 'place',
      label: 'Stel je woonplaats in',
      done: me.data.latitude !== undefined && me.data.longitude !== undefined,
      to: '/dashboard/profile',
      action: 'Naar je profiel',
    },
    { key: 'listing', label: 'Plaats je eerste aanbod', done: listings.data.length > 0, to: '/dashboard/add-listing', action: 'Aanbod plaatsen' },
    { key: 'wish', label: 'Bewaar je eerste wens op je verlanglijstje', done: wishes.data.length > 0, to: '/dashboard/search', action: 'Zoek in het aanbod' },
  ];
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  return (
    <section className={styles.firstSteps} aria-labelledby="first-steps" data-testid="first-steps">
      <h2 id="first-steps">Je eerste stappen</h2>
      <p>
        {done} van de {steps.length} gedaan. Zo vinden buren jou, en jij hen.
      </p>
      <ul>
        {steps.map((step) => (
          <li key={step.key} data-step={step.key} data-done={step.done}>
            {step.done ? <CircleCheck aria-hidden="true" size={20} /> : <Circle aria-hidden="true" size={20} />}
            <span>
              {step.label}
              <span className={styles.srOnly}>{step.done ? ' (gedaan)' : ' (nog te doen)'}</span>
            </span>
            {!step.done && (
              <Link to={step.to} aria-label={`${step.action}: ${step.label.toLowerCase()}`}>
                {step.action}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
