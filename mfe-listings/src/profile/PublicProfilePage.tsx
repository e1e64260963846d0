import { useEffect } from 'react';
import { DEFAULT_AVATAR, listingApi, reliabilityLine, userApi, type PublicStats, type PublicUser } from '@ruilplein/contracts/browser';
import { ApiError, BlockButton, EmptyState, ErrorMessage, failureMessage, Loaded, Page, ReceivedReviews, ReportDialog, Spinner, useApi, useSession } from '@ruilplein/ui';
import { Link, useParams } from 'react-router-dom';
import { ListingCard, ListingCardList } from '../common/ListingCard.tsx';
import * as styles from './PublicProfilePage.module.css';

const rating = new Intl.NumberFormat('nl-NL', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The badges a member's roles earn: Premium, Admin (Beheerder), Moderator. */
const roleBadges: { role: PublicUser['role'][number]; label: string; className: string }[] = [
  { role: 'Premium', label: 'Premium', className: styles.premium ?? '' },
  { role: 'Beheerder', label: 'Admin', className: styles.admin ?? '' },
  { role: 'Moderator', label: 'Moderator', className: styles.admin ?? '' },
];

function StatTiles({ userId }: { userId: string }) {
  const stats = useApi(userApi.publicStats, { params: { id: userId } });
  // Figures that cannot be fetched are only logged (spec 2 §8): the tiles show a dash.
  useEffect(() => {
    if (stats.isError) console.warn('Kon statistieken niet ophalen', stats.error);
  }, [stats.isError, stats.error]);
  const figures: PublicStats | undefined = stats.data;
  const show = (value: number | undefined) => (value === undefined ? '–' : String(value));
  const reviewers = figures?.totalReviewers ?? 0;
  return (
    <dl className={styles.stats} data-testid="public-stats" aria-busy={stats.isPending}>
      <div className={styles.tile}>
        <dt>Ruilen</dt>
        <dd data-testid="stat-trades">{show(figures?.totalTrades)}</dd>
      </div>
      <div className={styles.tile}>
        <dt>Gemiddelde beoordeling</dt>
        <dd data-testid="stat-rating">
          {figures && reviewers > 0 ? `${rating.format(figures.averageRating)} / 5` : '–'}
          {figures && (
            <span className={styles.sub}>
              {reviewers === 1 ? '1 beoordelaar' : `${reviewers} beoordelaars`}
            </span>
          )}
        </dd>
      </div>
      <div className={styles.tile}>
        <dt>Actieve listings</dt>
        <dd data-testid="stat-listings">{show(figures?.activeListings)}</dd>
      </div>
    </dl>
  );
}

/** 'Reageert meestal binnen 3 uur · 95% afgerond (20 ruilen)' or 'Nieuw lid' (issue 24); nothing while loading or when it fails. */
function ReliabilityLine({ userId }: { userId: string }) {
  const score = useApi(userApi.reliability, { params: { id: userId } });
  if (!score.data) return null;
  return (
    <p className={styles.reliability} data-testid="reliability">
      {reliabilityLine(score.data)}{' '}
      <Link to="/ruilregels#betrouwbaarheid">Hoe berekenen we dit?</Link>
    </p>
  );
}

function MemberListings({ user }: { user: PublicUser }) {
  const listings = useApi(listingApi.byUser, { params: { userId: user.id } });
  const { user: me } = useSession();
  return (
    <Loaded query={listings} label="Listings worden geladen…">
      {(list) =>
        list.length === 0 ? (
          <EmptyState>{user.firstName} heeft nog geen listings.</EmptyState>
        ) : (
          <ListingCardList label={`Listings van ${user.firstName}`}>
            {list.map((listing) => (
              <ListingCard key={listing.id} listing={listing} own={listing.user.id === me?.id} />
            ))}
          </ListingCardList>
        )
      }
    </Loaded>
  );
}

/** Reporting and blocking the member (issue 22), for anyone else who is signed in; an admin cannot be blocked. */
function MemberActions({ user }: { user: PublicUser }) {
  const { user: me } = useSession();
  if (!me || me.id === user.id) return null;
  const admin = user.role.includes('Beheerder') || user.role.includes('Moderator');
  return (
    <div className={styles.actions} data-testid="profile-actions">
      <ReportDialog
        reportedId={user.id}
        withCategory
        title={`${user.firstName} ${user.lastName} rapporteren`}
        intro={`Vertel ons wat er niet klopt aan ${user.firstName}. Een beheerder bekijkt je melding; ${user.firstName} ziet niet wie meldde.`}
      />
      {!admin && <BlockButton member={user} />}
    </div>
  );
}

function Profile({ user }: { user: PublicUser }) {
  const badges = roleBadges.filter(({ role }) => user.role.includes(role));
  return (
    <Page title={`${user.firstName} ${user.lastName}`}>
      <div className={styles.header}>
        <img className={styles.avatar} src={user.profilePicture || DEFAULT_AVATAR} alt={`Profielfoto van ${user.firstName}`} width={112} height={112} />
        <div className={styles.identity}>
          {badges.length > 0 && (
            <ul className={styles.badges} aria-label="Rollen">
              {badges.map(({ label, className }) => (
                <li key={label} className={className}>
                  {label}
                </li>
              ))}
            </ul>
          )}
          <p className={styles.city} data-testid="public-city">
            {user.city || 'Woonplaats onbekend'}
          </p>
          <MemberActions user={user} />
        </div>
      </div>
      <section aria-labelledby="public-stats-title">
        <h2 id="public-stats-title" className={styles.sectionTitle}>
          Statistieken
        </h2>
        <StatTiles userId={user.id} />
        <ReliabilityLine userId={user.id} />
      </section>
      <section aria-labelledby="public-reviews-title">
        <h2 id="public-reviews-title" className={styles.sectionTitle}>
          Ontvangen reviews
        </h2>
        <ReceivedReviews userId={user.id} empty="Deze gebruiker heeft nog geen reviews ontvangen." />
      </section>
      <section aria-labelledby="public-listings-title">
        <h2 id="public-listings-title" className={styles.sectionTitle}>
          Listings van {user.firstName}
        </h2>
        <MemberListings user={user} />
      </section>
    </Page>
  );
}

/** /dashboard/user/:id, a member's public profile (spec 2 §2): who they are, their figures, reviews and listings. */
export function PublicProfilePage() {
  const { id = '' } = useParams();
  const user = useApi(userApi.public, { params: { id } });
  if (user.isPending)
    return (
      <Page title="Profiel">
        <Spinner label="Profiel wordt geladen." />
      </Page>
    );
  if (user.isError) {
    // An unknown or malformed id is 'not found'; an outage can be retried.
    const outage = !(user.error instanceof ApiError) || user.error.status === 0 || user.error.status >= 500;
    return (
      <Page title="Profiel">
        {outage ? <ErrorMessage message={failureMessage(user.error)} onRetry={() => void user.refetch()} /> : <ErrorMessage message="Gebruiker niet gevonden" />}
      </Page>
    );
  }
  if (!user.data)
    return (
      <Page title="Profiel">
        <ErrorMessage message="Lege response van server" />
      </Page>
    );
  return <Profile user={user.data} />;
}
