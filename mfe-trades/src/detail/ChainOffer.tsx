// A three-party offer (a swap chain, issue 24) on /dashboard/tradeoffer/:id: each member with what
// they give to whom and where they stand, what the viewer can do now (accept or reject, withdraw as
// its proposer, confirm, then review the member who gave to them) and the group chat.
import { useId } from 'react';
import { type Offer, type OfferResponse } from '@ruilplein/contracts/browser';
import { buttonClass, formatDate, useSession } from '@ruilplein/ui';
import { Chat } from '../chat/Chat.tsx';
import { ItemThumb } from '../common/ItemThumb.tsx';
import { Notice } from '../common/Notice.tsx';
import { Party } from '../common/Party.tsx';
import { StatusBadge } from '../common/StatusBadge.tsx';
import { useOfferActions, type Question } from './offer-actions.ts';
import { OfferMessage } from './OfferMessage.tsx';
import { ReviewSection } from './Review.tsx';
import * as styles from './OfferDetail.module.css';

type Participant = NonNullable<Offer['participants']>[number];
type ChainOffer = Offer & { participants: Participant[] };

export const isChainOffer = (offer: Offer): offer is ChainOffer => !!offer.participants?.length;

const QUESTIONS: Record<OfferResponse, Question> = {
  Accepted: { message: 'Weet je zeker dat je deze ruilketen wilt accepteren?', confirmLabel: 'Accepteren', danger: false, done: 'Je hebt de ruilketen geaccepteerd.' },
  Rejected: { message: 'Weet je zeker dat je deze ruilketen wilt afwijzen? Dan gaat hij voor iedereen niet door.', confirmLabel: 'Afwijzen', danger: true, done: 'Je hebt de ruilketen afgewezen.' },
  Cancelled: { message: 'Weet je zeker dat je deze ruilketen wilt intrekken?', confirmLabel: 'Intrekken', danger: true, done: 'Je hebt de ruilketen ingetrokken.' },
};

const titles = (p: Participant, key: 'gives' | 'receives') => p[key].map((i) => i.title).join(', ') || 'niets';

/** One member of the ring: who, what they give to whom, and their acceptance and confirmation. */
function Member({ offer, p, me }: { offer: ChainOffer; p: Participant; me: string | undefined }) {
  const to = offer.participants.find((q) => q.id === p.givesTo);
  const proposer = p.id === offer.senderID;
  return (
    <li className={styles.chainMember} data-testid="chain-participant" data-user={p.id}>
      <div className={styles.chainWho}>
        <Party party={p} />
        {p.id === me && <span className={styles.chainYou}>(jij)</span>}
        {proposer && <span className={styles.chainYou}>stelde de ruilketen voor</span>}
      </div>
      <div className={styles.item}>
        {p.gives[0] && <ItemThumb item={p.gives[0]} />}
        <p className={styles.explain}>
          Geeft <strong>{titles(p, 'gives')}</strong> aan {to ? to.firstName : 'de volgende'}
        </p>
      </div>
      <ul className={styles.chainStates} aria-label={`Stand van ${p.firstName}`}>
        <li data-testid="chain-accepted">{p.accepted ? 'Geaccepteerd' : 'Nog niet geaccepteerd'}</li>
        <li data-testid="chain-confirmed">{p.confirmed ? 'Ruil bevestigd' : 'Nog niet bevestigd'}</li>
      </ul>
    </li>
  );
}

function ChainActions({ offer, me }: { offer: ChainOffer; me: Participant }) {
  const { dialog, notice, ask, askConfirm: confirmAsking, busy } = useOfferActions(offer, { questions: QUESTIONS, completed: 'De ruilketen is voltooid!' });
  const giver = offer.participants.find((p) => p.id === me.receivesFrom);
  const receiver = offer.participants.find((p) => p.id === me.givesTo);
  const askConfirm = () =>
    confirmAsking(`Heb je ${titles(me, 'gives')} aan ${receiver?.firstName ?? 'de ander'} gegeven en ${titles(me, 'receives')} van ${giver?.firstName ?? 'de ander'} gekregen? Als iedereen bevestigt, is de ruilketen voltooid.`);
  const proposer = me.id === offer.senderID;
  const waitingFor = offer.participants.filter((p) => (offer.status === 'Pending' ? !p.accepted : !p.confirmed) && p.id !== me.id).map((p) => p.firstName);

  let content = null;
  if (offer.status === 'Pending' && !me.accepted)
    content = (
      <>
        <p className={styles.explain}>
          Je krijgt <strong>{titles(me, 'receives')}</strong> van {giver?.firstName} en geeft <strong>{titles(me, 'gives')}</strong> aan {receiver?.firstName}. Accepteer de ruilketen, of wijs hem af: dan gaat hij voor
          iedereen niet door.
        </p>
        <div className={styles.buttons}>
          <button type="button" className={buttonClass()} disabled={busy} onClick={() => void ask('Accepted')}>
            Accepteren
          </button>
          <button type="button" className={`${buttonClass('secondary')} ${styles.danger}`} disabled={busy} onClick={() => void ask('Rejected')}>
            Afwijzen
          </button>
        </div>
      </>
    );
  else if (offer.status === 'Pending')
    content = (
      <>
        <p className={styles.explain} data-testid="chain-waiting">
          Wachten op {waitingFor.join(' en ')}.{proposer ? ' Zolang de ruilketen in afwachting is, kun je hem intrekken.' : ''}
        </p>
        <div className={styles.buttons}>
          {proposer ? (
            <button type="button" className={`${buttonClass('secondary')} ${styles.danger}`} disabled={busy} onClick={() => void ask('Cancelled')}>
              Intrekken
            </button>
          ) : (
            <button type="button" className={`${buttonClass('secondary')} ${styles.danger}`} disabled={busy} onClick={() => void ask('Rejected')}>
              Afwijzen
            </button>
          )}
        </div>
      </>
    );
  else if (offer.status === 'Accepted')
    content = me.confirmed ? (
      <p className={styles.waiting} data-testid="confirm-waiting">
        Wachten op bevestiging van {waitingFor.join(' en ')}...
      </p>
    ) : (
      <>
        <p className={styles.explain}>Iedereen doet mee. Spreek in de chat af hoe jullie ruilen, en bevestig zodra jij je ruil gedaan hebt.</p>
        <div className={styles.buttons}>
          <button type="button" className={buttonClass()} disabled={busy} onClick={() => void askConfirm()}>
            Ruil bevestigen
          </button>
        </div>
      </>
    );
  else if (offer.status === 'Completed' && giver) content = <ReviewSection offer={offer} other={giver} />;

  return (
    <section className={styles.actions} aria-label="Acties" data-testid="offer-actions">
      <Notice notice={notice} testId="offer-notice" />
      {content}
      {dialog}
    </section>
  );
}

/** The page's body for a three-party offer. */
export function ChainOfferBody({ offer }: { offer: ChainOffer }) {
  const { user } = useSession();
  const me = offer.participants.find((p) => p.id === user?.id);
  const ringId = useId();
  const others = offer.participants.filter((p) => p.id !== me?.id);
  return (
    <>
      <div className={styles.header}>
        <p className={styles.parties}>Ruilketen met {offer.participants.map((p) => p.firstName).join(', ')}</p>
        <StatusBadge status={offer.status} />
        <p className={styles.date}>Gemaakt op {formatDate(offer.createdAt)}</p>
      </div>
      <section className={styles.panel} aria-labelledby={ringId} data-testid="chain-ring">
        <h2 id={ringId} className={styles.panelTitle}>
          Wie geeft wat aan wie
        </h2>
        <ol className={styles.chainList}>
          {offer.participants.map((p) => (
            <Member key={p.id} offer={offer} p={p} me={user?.id} />
          ))}
        </ol>
      </section>
      <OfferMessage message={offer.message} />
      {me ? (
        <>
          <ChainActions offer={offer} me={me} />
          <div className={styles.chatPlace}>
            <Chat offer={offer} side={me.id === offer.senderID ? 'sender' : 'receiver'} members={others} />
          </div>
        </>
      ) : (
        <p className={styles.explain}>Je bekijkt deze ruilketen als beheerder: alleen de leden kunnen hem beantwoorden en erover chatten.</p>
      )}
    </>
  );
}
