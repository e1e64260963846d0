import { useId, useLayoutEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { DEFAULT_CRATE, OFFER_MESSAGE_MAX_LENGTH, OFFER_MESSAGES, tradeApi, type InventoryItem, type Listing, type Offer } from '@ruilplein/contracts/browser';
import { ApiError, apiQuery, buttonClass, request, useConfirm, useSession } from '@ruilplein/ui';
import { invalidateTradeData } from '../common/queries.ts';
import { ItemThumb } from '../common/ItemThumb.tsx';
import * as styles from './CreateOfferPage.module.css';

/** Whose side of the offer: the owner's ('theirs', requested) or the member's own ('mine', offered). */
type Side = 'theirs' | 'mine';
type Chosen = Record<Side, string[]>;

/** The drag's payload: which side's item it is (a drop counts only on that side's zone). */
const DRAG_TYPE = 'application/x-ruilplein-item';

const ZONE_NAMES: Record<Side, string> = { theirs: 'Zij bieden aan', mine: 'Jij biedt aan' };
const INVENTORY_NAMES: Record<Side, string> = { theirs: 'Items van Tegenpartij', mine: 'Jouw Items' };

/**
 * What the builder makes: a new offer on a listing, or a counter-offer (issue 24) to a received
 * Pending offer, to its sender, the roles swapped: the counterer gives their own items and asks for
 * the sender's.
 */
type OfferPurpose =
  | {
      kind: 'create';
      listing: Listing;
      /** The server refused because today's offers are used up: the page shows the notice instead. */
      onLimitReached: () => void;
    }
  | { kind: 'counter'; offer: Offer };

interface Props {
  purpose: OfferPurpose;
  userId: string;
  mine: InventoryItem[];
  theirs: InventoryItem[];
}

/** A counter-offer lands on the new offer's page, which says so (the state of the navigation). */
export interface CounterSent {
  counterSentFor: number;
}

/** The other party and what starts in the zones. */
function startOf(purpose: OfferPurpose, mine: InventoryItem[], theirs: InventoryItem[]): { other: { id: string; firstName: string }; chosen: Chosen; missing: string[] } {
  if (purpose.kind === 'create') {
    const { listing } = purpose;
    const present = theirs.some((item) => item.listingID === listing.id);
    if (!present) console.warn('Listing niet gevonden in de inventaris van de tegenpartij', listing.id);
    return { other: listing.user, chosen: { theirs: present ? [listing.id] : [], mine: [] }, missing: [] };
  }
  // The offer's items, each on its owner's side: the sender's are now asked for, one's own given.
  const { offer } = purpose;
  const missing: string[] = [];
  const keep = (items: InventoryItem[], wanted: { listingID: string; title: string }[]) =>
    wanted.flatMap((item) => {
      if (items.some((x) => x.listingID === item.listingID)) return [item.listingID];
      missing.push(item.title);
      return [];
    });
  const once = (items: Offer['items']) => items.filter((item, index) => items.findIndex((x) => x.listingID === item.listingID) === index);
  return {
    other: offer.sender,
    chosen: { theirs: keep(theirs, once(offer.items.filter((item) => item.userID === offer.senderID))), mine: keep(mine, once(offer.items.filter((item) => item.userID === offer.receiverID))) },
    missing,
  };
}

/**
 * The four areas of the offer (spec 2 §2, §4): both inventories and the two zones of the offer.
 * An item goes into the zone of the side that owns it, by dragging it there or by its button (the
 * keyboard way: Enter or Space on an inventory item adds or takes it out; on an item in a zone takes
 * it out, the focus moving to the next item there). No item twice; the listing the offer is made on
 * starts in 'Zij bieden aan'.
 */
export function OfferBuilder({ purpose, userId, mine, theirs }: Props) {
  const inventories: Record<Side, InventoryItem[]> = { theirs, mine };
  const [start] = useState(() => startOf(purpose, mine, theirs));
  const owner = start.other;
  const [chosen, setChosen] = useState<Chosen>(start.chosen);
  const [dialog, confirm] = useConfirm();
  const [dragging, setDragging] = useState<{ side: Side; id: string } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const messageId = useId();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const { amountOfTrades, setAmountOfTrades } = useSession();

  const itemOf = (side: Side, id: string) => inventories[side].find((item) => item.listingID === id);

  const add = (side: Side, id: string) => {
    const item = itemOf(side, id);
    if (!item) return;
    if (chosen[side].includes(id)) return setAnnouncement(`${item.title} staat al in '${ZONE_NAMES[side]}'.`);
    setChosen((current) => ({ ...current, [side]: [...current[side], id] }));
    setAnnouncement(`${item.title} toegevoegd aan '${ZONE_NAMES[side]}'.`);
  };
  const remove = (side: Side, id: string) => {
    setChosen((current) => ({ ...current, [side]: current[side].filter((x) => x !== id) }));
    setAnnouncement(`${itemOf(side, id)?.title ?? 'Item'} verwijderd uit '${ZONE_NAMES[side]}'.`);
  };

  const create = useMutation({
    mutationFn: () => {
      const items = [...chosen.theirs.map((id) => ({ listingID: id, userID: owner.id })), ...chosen.mine.map((id) => ({ listingID: id, userID: userId }))];
      if (purpose.kind === 'counter') return request(tradeApi.counter, { params: { id: String(purpose.offer.id) }, body: { message: message.trim(), items } });
      return request(tradeApi.create, { body: { senderID: userId, receiverID: owner.id, listingOfferedOnID: purpose.listing.id, message: message.trim(), items } });
    },
    onSuccess: async (offer) => {
      queries.setQueryData(apiQuery(tradeApi.get, { params: { id: String(offer.id) } }).queryKey, offer);
      if (purpose.kind === 'counter') {
        // A counter counts for no day; the original (now rejected) and the lists are read again.
        void invalidateTradeData(queries);
        const state: CounterSent = { counterSentFor: purpose.offer.id };
        return navigate(`/dashboard/tradeoffer/${offer.id}`, { state });
      }
      // One more today at once (the listing page reads it through the session), then the count
      // (one query, /api/tradeoffer/count) and every offer list are asked again.
      setAmountOfTrades(amountOfTrades + 1);
      void invalidateTradeData(queries);
      await navigate(`/dashboard/tradeoffer/${offer.id}`);
    },
    onError: (err) => {
      console.warn(purpose.kind === 'counter' ? 'Tegenbod versturen mislukt' : 'Fout bij aanmaken trade offer', err);
      if (purpose.kind === 'create' && err instanceof ApiError && err.status === 403 && err.message === OFFER_MESSAGES.dailyLimit) purpose.onLimitReached();
      // The offer countered may have moved on (withdrawn, answered): its page reads it again.
      if (purpose.kind === 'counter') void invalidateTradeData(queries);
      const fallback = purpose.kind === 'counter' ? 'Je tegenbod kon niet worden verstuurd. Probeer het opnieuw.' : 'Je aanbod kon niet worden verstuurd. Probeer het opnieuw.';
      setProblem(err instanceof ApiError && err.status !== 0 ? err.message : fallback);
    },
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (purpose.kind === 'counter') {
      // The server needs one of their items (not the crate) to make the counter on.
      if (!chosen.theirs.some((id) => id !== DEFAULT_CRATE.listingID)) return setProblem(OFFER_MESSAGES.counterNeedsTheirItem);
      const yes = await confirm(`Je tegenbod vervangt dit aanbod: het huidige aanbod (Ruilaanbieding #${purpose.offer.id}) wordt afgewezen. Tegenbod naar ${owner.firstName} versturen?`, {
        confirmLabel: 'Tegenbod versturen',
        danger: true,
      });
      if (!yes) return;
    }
    create.mutate();
  };

  return (
    <>
      <form onSubmit={(event) => void submit(event)} className={styles.form} aria-describedby={`${messageId}-how`}>
        {purpose.kind === 'counter' && (
          <p className={styles.warning} data-testid="counter-warning">
            Je tegenbod vervangt dit aanbod: het huidige aanbod wordt afgewezen. De items van het aanbod staan al klaar, met de rollen omgedraaid: jij biedt je eigen items aan en vraagt om die van {owner.firstName}.
          </p>
        )}
        {start.missing.length > 0 && (
          <p className={styles.how} data-testid="counter-missing">
            Niet meer beschikbaar, dus niet meegenomen: {start.missing.join(', ')}.
          </p>
        )}
        <p id={`${messageId}-how`} className={styles.how}>
          Klik op een item of sleep het naar de kant van zijn eigenaar: items van {owner.firstName} naar 'Zij bieden aan', je eigen items naar 'Jij biedt aan'.
        </p>
        <div className={styles.areas}>
          <Inventory side="theirs" items={theirs} chosen={chosen.theirs} onToggle={(id) => (chosen.theirs.includes(id) ? remove('theirs', id) : add('theirs', id))} onDrag={setDragging} />
          <Inventory side="mine" items={mine} chosen={chosen.mine} onToggle={(id) => (chosen.mine.includes(id) ? remove('mine', id) : add('mine', id))} onDrag={setDragging} />
          <Zone side="theirs" items={chosen.theirs.flatMap((id) => itemOf('theirs', id) ?? [])} dragging={dragging} onDrop={(id) => add('theirs', id)} onRemove={(id) => remove('theirs', id)} onDragDone={() => setDragging(null)} />
          <Zone side="mine" items={chosen.mine.flatMap((id) => itemOf('mine', id) ?? [])} dragging={dragging} onDrop={(id) => add('mine', id)} onRemove={(id) => remove('mine', id)} onDragDone={() => setDragging(null)} />
        </div>
        <p className={styles.announcer} role="status" data-testid="offer-announcer">
          {announcement}
        </p>
        <label htmlFor={messageId} className={styles.label}>
          {purpose.kind === 'counter' ? 'Bericht bij je tegenbod (optioneel):' : 'Bericht bij jouw aanbod (optioneel):'}
        </label>
        <textarea
          id={messageId}
          className={styles.message}
          value={message}
          rows={4}
          maxLength={OFFER_MESSAGE_MAX_LENGTH}
          onChange={(event) => setMessage(event.target.value)}
          placeholder="Zullen we ruilen? 😄"
        />
        <div role="alert" className={styles.problemRegion}>
          {problem && (
            <p className={styles.problem} data-testid="offer-problem">
              {problem}
            </p>
          )}
        </div>
        <div>
          <button type="submit" className={buttonClass()} disabled={create.isPending}>
            {create.isPending ? 'Bezig...' : purpose.kind === 'counter' ? 'Tegenbod versturen' : 'Bevestig Aanbod'}
          </button>
        </div>
      </form>
      {/* Outside the form: the dialog's own form must not submit this one. */}
      {dialog}
    </>
  );
}

function Inventory({
  side,
  items,
  chosen,
  onToggle,
  onDrag,
}: {
  side: Side;
  items: InventoryItem[];
  chosen: string[];
  onToggle: (id: string) => void;
  onDrag: (drag: { side: Side; id: string } | null) => void;
}) {
  const headingId = useId();
  const start = (event: DragEvent, id: string) => {
    event.dataTransfer.setData(DRAG_TYPE, `${side}:${id}`);
    event.dataTransfer.setData('text/plain', items.find((item) => item.listingID === id)?.title ?? id);
    event.dataTransfer.effectAllowed = 'copy';
    onDrag({ side, id });
  };
  return (
    <section className={`${styles.area} ${styles[side]}`} aria-labelledby={headingId} data-testid={`inventory-${side}`}>
      <h2 id={headingId} className={styles.areaTitle}>
        {INVENTORY_NAMES[side]}
      </h2>
      {items.length === 0 ? (
        <p className={styles.empty}>Geen items beschikbaar.</p>
      ) : (
        <ul className={styles.items}>
          {items.map((item) => {
            const pressed = chosen.includes(item.listingID);
            return (
              <li key={item.listingID}>
                <button
                  type="button"
                  className={styles.item}
                  aria-pressed={pressed}
                  draggable
                  onDragStart={(event) => start(event, item.listingID)}
                  onDragEnd={() => onDrag(null)}
                  onClick={() => onToggle(item.listingID)}
                >
                  <ItemThumb item={item} />
                  <span className={styles.itemTitle}>{item.title}</span>
                  <span className={styles.mark} aria-hidden="true">
                    {pressed ? '✓' : '+'}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Zone({
  side,
  items,
  dragging,
  onDrop,
  onRemove,
  onDragDone,
}: {
  side: Side;
  items: InventoryItem[];
  dragging: { side: Side; id: string } | null;
  onDrop: (id: string) => void;
  onRemove: (id: string) => void;
  onDragDone: () => void;
}) {
  const headingId = useId();
  const zone = useRef<HTMLDivElement>(null);
  const [over, setOver] = useState(false);
  // After an item is taken out, the focus goes to the item now in its place, else the zone: the
  // click notes the place, the render without the item moves the focus there.
  const refocus = useRef<number | null>(null);
  const accepts = dragging?.side === side;

  useLayoutEffect(() => {
    const place = refocus.current;
    if (place === null) return;
    refocus.current = null;
    const buttons = zone.current?.querySelectorAll<HTMLButtonElement>('button');
    const target = buttons && buttons.length > 0 ? buttons[Math.min(place, buttons.length - 1)] : zone.current;
    target?.focus();
  }, [items.length]);

  const dragOver = (event: DragEvent) => {
    // Only the owner's side takes the item: elsewhere the browser shows that it cannot be dropped.
    if (!accepts) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const [from, id] = (event.dataTransfer.getData(DRAG_TYPE) || (dragging ? `${dragging.side}:${dragging.id}` : '')).split(':');
    onDragDone();
    if (from === side && id) onDrop(id);
  };

  return (
    // The whole area takes the drop, its heading included.
    <section
      className={`${styles.area} ${styles.zoneArea} ${styles[side]}`}
      aria-labelledby={headingId}
      data-testid={`zone-${side}`}
      onDragOver={dragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={drop}
    >
      <h2 id={headingId} className={styles.areaTitle}>
        {ZONE_NAMES[side]}
      </h2>
      <div ref={zone} tabIndex={-1} className={`${styles.zone} ${accepts ? styles.accepting : ''} ${over ? styles.over : ''}`}>
        {items.length === 0 ? (
          <p className={styles.empty}>Sleep hier items om toe te voegen aan je ruil.</p>
        ) : (
          <ul className={styles.items}>
            {items.map((item, index) => (
              <li key={item.listingID}>
                <button
                  type="button"
                  className={`${styles.item} ${styles.chosen}`}
                  onClick={() => {
                    refocus.current = index;
                    onRemove(item.listingID);
                  }}
                >
                  <ItemThumb item={item} />
                  <span className={styles.itemTitle}>{item.title}</span>
                  <span className={styles.removeHint}>verwijderen</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
