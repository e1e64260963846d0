// /dashboard/ruilketen/:id (issue 24): one of the member's suggested swap chains. The ring drawn and
// in words (who gives what to whom), the farthest distance, and 'Voorstel doen', which makes it a
// three-party offer: its page (/dashboard/tradeoffer/:id) holds each member's state and the group
// chat. A two-member cycle is a plain offer: the offer builder instead.
import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { CHAIN_ID_PATTERN, CHAIN_MESSAGES, chainApi, otherMembers, ringLine } from '@ruilplein/contracts/browser';
import { ApiError, apiKey, buttonClass, formatDistance, Loaded, Page, request, useApi, useConfirm, useSession } from '@ruilplein/ui';
import { Notice, type NoticeValue } from '../common/Notice.tsx';
import { RingDrawing } from './RingDrawing.tsx';
import { chainById, proposeQuestion, receiverOf, type ChainSuggestion } from './ring.ts';
import * as styles from './ChainPage.module.css';

const TITLE = 'Ruilketen';

/** A refused proposal in Dutch: gone (404), taken by another proposal (409), or the server's own words. */
function failureOf(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === 0 || err.status >= 500) return 'Er ging iets mis. Probeer het later opnieuw.';
  if (err.status === 404) return CHAIN_MESSAGES.notFound;
  if (err.status === 409) return err.message || CHAIN_MESSAGES.taken;
  return err.message;
}

const listingLink = (listing: { listingId: string; title: string }) => <Link to={`/dashboard/listing/${encodeURIComponent(listing.listingId)}`}>{listing.title}</Link>;

function Gone() {
  return (
    <div className={styles.gone} data-testid="chain-gone">
      <p>{CHAIN_MESSAGES.notFound}</p>
      <Link to="/dashboard">Terug naar je dashboard</Link>
    </div>
  );
}

function Propose({ chain, me }: { chain: ChainSuggestion; me: string | undefined }) {
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [dialog, confirm] = useConfirm();
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const propose = useMutation({
    mutationFn: () => request(chainApi.propose, { params: { id: chain.id } }),
    onSuccess: ({ offerId }) => {
      void queries.invalidateQueries({ queryKey: apiKey(chainApi.suggestions) });
      return navigate(`/dashboard/tradeoffer/${offerId}`);
    },
    onError: (err) => {
      console.warn('Ruilketen voorstellen mislukt', err);
      setNotice({ ok: false, message: failureOf(err) });
      // Gone: read the suggestions again, and the page says so in place of the chain.
      if (err instanceof ApiError && err.status === 404) void queries.invalidateQueries({ queryKey: apiKey(chainApi.suggestions) });
    },
  });
  const ask = async () => {
    if (!(await confirm(proposeQuestion(chain, me), { confirmLabel: 'Voorstel doen' }))) return;
    setNotice(null);
    propose.mutate();
  };
  return (
    <section className={styles.actions} aria-label="Voorstellen" data-testid="chain-propose">
      <Notice notice={notice} testId="chain-notice" />
      <p className={styles.explain}>Stel de ruilketen voor: {otherMembers(chain, me)} krijgen een melding. Gaat iedereen akkoord, dan spreken jullie in de groepschat af hoe jullie ruilen.</p>
      <div>
        <button type="button" className={buttonClass()} disabled={propose.isPending} aria-busy={propose.isPending} onClick={() => void ask()}>
          Voorstel doen
        </button>
      </div>
      {dialog}
    </section>
  );
}

/** Two members: a plain offer on the other's listing, made with the offer builder. */
function PlainOffer({ chain, me }: { chain: ChainSuggestion; me: string | undefined }) {
  const other = chain.participants.find((p) => p.userId !== me) ?? chain.participants[0]!;
  return (
    <section className={styles.actions} aria-label="Ruilaanbod doen" data-testid="chain-two">
      <p className={styles.explain}>{CHAIN_MESSAGES.twoMembers}</p>
      <div>
        <Link to={`/dashboard/listing/${encodeURIComponent(other.gives.listingId)}/offer`} className={buttonClass()}>
          Ruilaanbod doen op {other.gives.title}
        </Link>
      </div>
    </section>
  );
}

function Chain({ chain }: { chain: ChainSuggestion }) {
  const { user } = useSession();
  const ringId = useId();
  return (
    <>
      <p className={styles.line} data-testid="chain-line">
        {ringLine(chain, user?.id)}
      </p>
      <section className={styles.panel} aria-labelledby={ringId}>
        <h2 id={ringId} className={styles.panelTitle}>
          Wie geeft wat aan wie
        </h2>
        <div className={styles.ringBox}>
          <RingDrawing chain={chain} me={user?.id} />
          <ol className={styles.steps} data-testid="chain-steps">
            {chain.participants.map((p, i) => (
              <li key={p.userId} data-testid="chain-step" data-user={p.userId}>
                {p.firstName} geeft {listingLink(p.gives)} aan {receiverOf(chain, i).firstName}
              </li>
            ))}
          </ol>
        </div>
        <p className={styles.distance} data-testid="chain-distance">
          Verste afstand: {formatDistance(chain.maxDistanceKm)}
        </p>
      </section>
      {chain.participants.length > 2 ? <Propose chain={chain} me={user?.id} /> : <PlainOffer chain={chain} me={user?.id} />}
    </>
  );
}

export function ChainPage() {
  const { id = '' } = useParams();
  const valid = CHAIN_ID_PATTERN.test(id);
  const chains = useApi(chainApi.suggestions, {}, { enabled: valid });
  return (
    <Page title={TITLE}>
      {valid ? (
        <Loaded query={chains} label="Ruilketen laden…">
          {(list) => {
            const chain = chainById(list, id);
            return chain ? <Chain chain={chain} /> : <Gone />;
          }}
        </Loaded>
      ) : (
        <Gone />
      )}
    </Page>
  );
}
