// The chain service over real HTTP on the run's stores (the kit's harness), fed the way production
// feeds it: auth's member and block events, listing's listing and wishlist events, trade's offer
// events; trade's `rpc.trade.chain.propose` answered by a stand-in the test controls.
import { eventRegistry, tradeQueries, type ListingEvent, type OfferEvent, type Role, type UserEvent } from '@ruilplein/contracts';
import { createEvent, now, serveQuery } from '@ruilplein/service-kit';
import { handledBy, startServiceForTest, type ServiceTest } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import type { z } from 'zod';
import { createChainService } from '../src/app.ts';

export { send, waitFor, type Json } from '@ruilplein/service-kit/testing';

/** Utrecht, and places about 10 and 40 km away. */
export const PLACES = {
  utrecht: { latitude: 52.0907, longitude: 5.1214 },
  amersfoort: { latitude: 52.1561, longitude: 5.3878 },
  amsterdam: { latitude: 52.3676, longitude: 4.9041 },
};

type ProposeRequest = z.output<typeof tradeQueries.proposeChain.request>;
type ProposeAnswer = z.input<typeof tradeQueries.proposeChain.response>;

/** A member as auth announced them, with a token. */
export interface TestMember {
  id: string;
  token: string;
  state: UserEvent;
}

export interface ChainHarness extends Omit<ServiceTest<Awaited<ReturnType<typeof createChainService>>>, 'member'> {
  /** A member (auth.user.registered, in Utrecht unless told), once the chain service has settled them. */
  member(fields?: Partial<Omit<UserEvent, 'id' | 'version'>>): Promise<TestMember>;
  /** A listing of `owner` (listing.listing.created), handled. */
  listing(owner: TestMember, fields?: Partial<ListingEvent>): Promise<ListingEvent>;
  /** `member` wishes `listingId` (listing.wishlist.added with the entry's version), handled. */
  wish(member: TestMember, listingId: string, version?: number): Promise<void>;
  /** The requests the stand-in for trade received, and how it answers the next ones. */
  proposals: ProposeRequest[];
  answer: (request: ProposeRequest) => ProposeAnswer;
  /** A trade offer event about a chain. */
  offer(type: 'trade.offer.created' | 'trade.offer.rejected' | 'trade.offer.cancelled' | 'trade.offer.completed', over: Partial<OfferEvent> & Pick<OfferEvent, 'id' | 'chainId' | 'senderId' | 'receiverId'>): Promise<void>;
}

export async function startChain(): Promise<ChainHarness> {
  const h = await startServiceForTest({
    service: 'chain',
    streams: ['auth', 'listing', 'trade'],
    create: (deps) => createChainService(deps),
  });
  let nextOffer = 1;
  const harness = Object.assign(h, {
    proposals: [] as ProposeRequest[],
    answer: (): ProposeAnswer => ({ ok: true, offerId: nextOffer++ }),
    async member(fields: Partial<Omit<UserEvent, 'id' | 'version'>> = {}) {
      const id = new Types.ObjectId().toHexString();
      const state: UserEvent = { id, version: 1, firstName: 'Lid', lastName: id.slice(-4), profilePicture: '', roles: ['Gebruiker'], activated: true, ...PLACES.utrecht, ...fields };
      await handledBy(h, 'chain-members', createEvent(eventRegistry, 'auth.user.registered', state));
      return { id, state, token: await h.issuer.sign({ sub: id, roles: state.roles as Role[] }) };
    },
    async listing(owner: TestMember, fields: Partial<ListingEvent> = {}) {
      const event = createEvent(eventRegistry, 'listing.listing.created', {
        id: new Types.ObjectId().toHexString(), version: 1, ownerId: owner.id, active: true, title: 'Stadsfiets', excerpt: '', listingType: 'item', acceptsItems: false, isPremium: false,
        initialValue: null, categoryIds: [], imageUrl: '', thumbnailUrl: '', placeholder: '', createdAt: '2020-01-01T00:00:00.000Z',
        latitude: owner.state.latitude, longitude: owner.state.longitude, ...fields,
      });
      await handledBy(h, 'chain-listings', event);
      return event.payload;
    },
    async wish(member: TestMember, listingId: string, version = 1) {
      await handledBy(h, 'chain-listings', createEvent(eventRegistry, 'listing.wishlist.added', { listingId, userId: member.id, version, at: now().toISOString() }));
    },
    async offer(type: Parameters<ChainHarness['offer']>[0], over: Parameters<ChainHarness['offer']>[1]) {
      const at = now().toISOString();
      await h.publish(type, { version: 1, listingId: new Types.ObjectId().toHexString(), listingIds: [], status: 'Pending', senderConfirmed: false, receiverConfirmed: false, createdAt: at, at, ...over });
    },
  }) as ChainHarness;
  const standIn = serveQuery(h.adminBus, 'trade', tradeQueries.proposeChain, async (request) => {
    harness.proposals.push(request);
    return harness.answer(request);
  }, h.logger);
  h.onClose(() => standIn.stop());
  return harness;
}
