import { Link } from 'react-router-dom';
import { buttonClass, Loaded, Page, useSession } from '@ruilplein/ui';
import * as styles from './Home.module.css';
import * as stats from './stats.module.css';
import { WarningNotice } from '../notifications/index.ts';
import { Chains } from './Chains.tsx';
import { FirstSteps } from './FirstSteps.tsx';
import { Trending } from './Trending.tsx';
import { formatRating, statsFailed, useStats } from './useStats.ts';

function Achievements({ userId }: { userId: string }) {
  const query = useStats(userId);
  return (
    <section className={styles.tile} aria-labelledby="tile-achievements">
      <h2 id="tile-achievements">Jouw prestaties</h2>
      <Loaded query={query} failure={statsFailed}>
        {(found) => (
          <dl className={stats.stats} data-testid="achievements">
            <div>
              <dt>Succesvolle ruilen</dt>
              <dd>{found.totalTrades}</dd>
            </div>
            <div>
              <dt>Gemiddelde beoordeling</dt>
              <dd>{formatRating(found)}</dd>
            </div>
            <div>
              <dt>Actieve advertenties</dt>
              <dd>{found.activeListings}</dd>
            </div>
          </dl>
        )}
      </Loaded>
    </section>
  );
}

/** /dashboard (spec 1 §2): the recommendations near the member and three tiles. */
export function DashboardHome() {
  const { user, isPremium } = useSession();
  if (!user) return null;
  return (
    <Page title={`Welkom, ${user.firstName}!`}>
      <WarningNotice />
      <FirstSteps />
      <Trending userId={user.id} />
      <Chains userId={user.id} />
      <div className={styles.tiles}>
        <Achievements userId={user.id} />
        <section className={styles.tile} aria-labelledby="tile-wishlist">
          <h2 id="tile-wishlist">Verlanglijstje</h2>
          <p>Bewaar wat je zoekt en vind het terug wanneer je wilt ruilen.</p>
          <Link to="/dashboard/wishlist" className={buttonClass('secondary')}>
            Naar je verlanglijstje
          </Link>
        </section>
        <section className={styles.premium} aria-labelledby="tile-premium">
          <h2 id="tile-premium">Premium</h2>
          {isPremium ? (
            <>
              <p>Je bent Premium: geen limieten en je advertenties vallen op.</p>
              <Link to="/dashboard/membership" className={buttonClass('secondary')}>
                Bekijk je lidmaatschap
              </Link>
            </>
          ) : (
            <>
              <p>Onbeperkt advertenties, een premium-badge, exclusieve categorieën en nieuwe advertenties 6 uur eerder zien.</p>
              <Link to="/dashboard/upgrade" className={buttonClass()}>
                Word Premium
              </Link>
            </>
          )}
        </section>
      </div>
    </Page>
  );
}
