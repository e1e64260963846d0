import { Link } from 'react-router-dom';
import { EmptyState, ErrorMessage, Page, Spinner, useSession } from '@ruilplein/ui';
import { formatRating, useStats } from './useStats.ts';

function Achievements({ userId }: { userId: string }) {
  const [state, retry] = useStats(userId);
  return (
    <section className="tile" aria-labelledby="tile-achievements">
      <h2 id="tile-achievements">Jouw prestaties</h2>
      {state.kind === 'loading' && <Spinner />}
      {state.kind === 'error' && <ErrorMessage message="Je statistieken konden niet worden geladen." onRetry={retry} />}
      {state.kind === 'ready' && (
        <dl className="stats" data-testid="achievements">
          <div>
            <dt>Succesvolle ruilen</dt>
            <dd>{state.stats.totalTrades}</dd>
          </div>
          <div>
            <dt>Gemiddelde beoordeling</dt>
            <dd>{formatRating(state.stats)}</dd>
          </div>
          <div>
            <dt>Actieve advertenties</dt>
            <dd>{state.stats.activeListings}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/** /dashboard (spec 1 §2): recommendations (their empty state until listings exist) and three tiles. */
export function DashboardHome() {
  const { user, isPremium } = useSession();
  if (!user) return null;
  return (
    <Page title={`Welkom, ${user.firstName}!`}>
      <section className="recommendations" aria-labelledby="trending">
        <h2 id="trending">Trending in je buurt</h2>
        <EmptyState>Er zijn nog geen aanbevelingen in je buurt. Zodra buren iets aanbieden, zie je het hier.</EmptyState>
      </section>
      <div className="tiles">
        <Achievements userId={user.id} />
        <section className="tile" aria-labelledby="tile-wishlist">
          <h2 id="tile-wishlist">Verlanglijstje</h2>
          <p>Bewaar wat je zoekt en vind het terug wanneer je wilt ruilen.</p>
          <Link to="/dashboard/wishlist" className="button secondary">
            Naar je verlanglijstje
          </Link>
        </section>
        <section className="tile premium" aria-labelledby="tile-premium">
          <h2 id="tile-premium">Premium</h2>
          {isPremium ? (
            <>
              <p>Je bent Premium: geen limieten en je advertenties vallen op.</p>
              <Link to="/dashboard/membership" className="button secondary">
                Bekijk je lidmaatschap
              </Link>
            </>
          ) : (
            <>
              <p>Onbeperkt advertenties, een premium-badge, exclusieve categorieën en nieuwe advertenties 6 uur eerder zien.</p>
              <Link to="/dashboard/upgrade" className="button">
                Word Premium
              </Link>
            </>
          )}
        </section>
      </div>
    </Page>
  );
}
