// The trade service over real HTTP on the run's stores (the kit's harness), with members made the
// way production makes them (auth's events) and a stand-in for the listing service's inventory query
// (`rpc.listing.inventory.get` over NATS request/reply, as the listing service answers it).
import { DEFAULT_CRATE, inventoryQueries, type eventRegistry, type CreateOfferRequest, type InventoryItem, type Role, type UserEvent } from '@ruilplein/contracts';
import { notFound, serveQuery, type ServiceParts } from '@ruilplein/service-kit';
import { send, silentLogger, startServiceForTest, type Json, type ServiceTest, type TestMember as AnnouncedMember } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import type { z } from 'zod';
import { expect } from 'vitest';
import { createTradeService, type TradeDeps } from '../src/app.ts';

export { send, waitFor, type Json } from '@ruilplein/service-kit/testing';

export const logger = silentLogger();

export interface TestMember extends Omit<AnnouncedMember, 'state'> {
  firstName: string;
  lastName: string;
  /** Places a listing in this member's inventory (the stand-in listing service); answers its id. */
  listing(title?: string): string;
  /** Takes a listing out of the inventory again (traded, deleted). */
  unlist(listingId: string): void;
}

export interface TradeHarness extends Omit<ServiceTest<ServiceParts>, 'member'> {
  /** The service's clock: undefined is the real time. */
  now: Date | undefined;
  /** Inventory questions the stand-in answered. */
  inventoryCalls: number;
  member(fields?: Partial<Omit<UserEvent, 'id' | 'version'>>, options?: { tokenRoles?: Role[] }): Promise<TestMember>;
}

/**
 * Empties the auth, listing and trade streams first (the run's other files publish there too),
 * then starts the service. The inventory stand-in answers on the listing service's subject, in its
 * queue group: no listing service runs meanwhile (the integration files run one after another).
 */
export async function startTrade(extra: Partial<TradeDeps> = {}): Promise<TradeHarness> {
  // Read at each call of the clock: the service may ask for the time while it starts.
  const self: { harness?: TradeHarness } = {};
  const h = await startServiceForTest({
    service: 'trade',
    streams: ['auth', 'listing'],
    memberDefaults: (id) => ({ profilePicture: `/uploads/avatars/${id}.webp` }),
    create: (deps) => createTradeService({ ...deps, logger, clock: () => self.harness?.now ?? new Date(), ...extra }),
  });

  const inventories = new Map<string, InventoryItem[]>();
  const responder = serveQuery(
    h.adminBus,
    'listing',
    inventoryQueries.get,
    async ({ userId }) => {
      self.harness!.inventoryCalls++;
      const items = inventories.get(userId);
      if (!items) throw notFound('Gebruiker niet gevonden');
      return [...items, { listingID: DEFAULT_CRATE.listingID, userID: userId, title: DEFAULT_CRATE.title, description: 'Het krat bier.', imageUrl: DEFAULT_CRATE.imageUrl, thumbnailUrl: DEFAULT_CRATE.imageUrl, isDefault: true }];
    },
    logger,
  );
  h.onClose(() => responder.stop());

  const announce = h.member;
  const state: Pick<TradeHarness, 'now' | 'inventoryCalls'> = { now: undefined, inventoryCalls: 0 };
  const harness: TradeHarness = (self.harness = Object.assign(h, state, {
    async member(fields: Partial<Omit<UserEvent, 'id' | 'version'>> = {}, options: { tokenRoles?: Role[] } = {}): Promise<TestMember> {
      const member = await announce(fields, options);
      const { id } = member;
      inventories.set(id, []);
      return {
        id,
        token: member.token,
        firstName: member.state.firstName,
        lastName: member.state.lastName,
        update: member.update,
        async remove() {
          inventories.delete(id);
          await member.remove();
        },
        listing(title = 'Stadsfiets') {
          const listingID = new Types.ObjectId().toHexString();
          const item: InventoryItem = { listingID, userID: id, title, description: `${title}, goed onderhouden.`, imageUrl: `/uploads/listings/${listingID}.webp`, thumbnailUrl: `/uploads/listings/${listingID}-480.webp`, isDefault: false };
          inventories.set(id, [item, ...(inventories.get(id) ?? [])]);
          return listingID;
        },
        unlist(listingId) {
          inventories.set(id, (inventories.get(id) ?? []).filter((i) => i.listingID !== listingId));
        },
      };
    },
  }));
  return harness;
}

/** The seed's payload for an offer on `listingId` of `receiver`, with these items. */
export const offerPayload = (sender: Pick<TestMember, 'id'>, receiver: Pick<TestMember, 'id'>, listingId: string, items: { listingID: string; userID: string }[] = [], message?: string): CreateOfferRequest => ({
  senderID: sender.id,
  receiverID: receiver.id,
  listingOfferedOnID: listingId,
  message,
  items: items.length ? items : [{ listingID: listingId, userID: receiver.id }],
});

/** Makes an offer through the API (201 expected) and answers it. */
export async function makeOffer(h: TradeHarness, sender: TestMember, receiver: TestMember, listingId?: string, items?: { listingID: string; userID: string }[]) {
  const on = listingId ?? receiver.listing();
  const res = await send(h.url, '/api/tradeoffer/create', { method: 'POST', token: sender.token, json: offerPayload(sender, receiver, on, items) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Json;
}

export const respond = (h: TradeHarness, who: TestMember, id: number, status: string) => send(h.url, `/api/tradeoffer/respond/${id}?status=${status}`, { method: 'PUT', token: who.token });
export const confirm = (h: TradeHarness, who: TestMember, id: number) => send(h.url, `/api/tradeoffer/confirm/${id}`, { method: 'POST', token: who.token });

/** An offer taken to Completed (accepted, both confirmed). */
export async function completedOffer(h: TradeHarness, sender: TestMember, receiver: TestMember, listingId?: string, items?: { listingID: string; userID: string }[]) {
  const offer = await makeOffer(h, sender, receiver, listingId, items);
  expect((await respond(h, receiver, offer.id, 'Accepted')).status).toBe(200);
  expect((await confirm(h, sender, offer.id)).status).toBe(200);
  const done = await confirm(h, receiver, offer.id);
  expect(done.body.status).toBe('Completed');
  return done.body as Json;
}

/** The events of one offer, in order. */
export const eventsOf = (h: TradeHarness, offerId: number) => h.events.filter((e) => (e.payload as { id?: unknown }).id === offerId && e.type.startsWith('trade.offer.'));

/** Publishes an event of another service (auth, listing) or a copy of one of trade's, as the privileged user. */
export const publish = <S extends keyof typeof eventRegistry & string>(h: TradeHarness, type: S, payload: z.input<(typeof eventRegistry)[S]>) => h.publish(type, payload);
