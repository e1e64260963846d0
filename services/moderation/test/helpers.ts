// The moderation service over real HTTP on the run's stores (the kit's harness), with members and
// listings made the way production makes them (auth's and listing's events) and every
// `moderation.>` event it publishes collected.
import type { ListingEvent, UserEvent } from '@ruilplein/contracts';
import type { ServiceParts } from '@ruilplein/service-kit';
import { startServiceForTest, type ServiceTest } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { createModerationService, type ModerationConfig } from '../src/app.ts';

export { send, waitFor, type Json } from '@ruilplein/service-kit/testing';

export interface TestMember {
  id: string;
  token: string;
  firstName: string;
  lastName: string;
  /** Publishes a listing of this member (listing.listing.created) and waits until it is projected. */
  listing(fields?: Partial<ListingEvent>): Promise<string>;
}

export interface ModerationHarness extends Omit<ServiceTest<ServiceParts>, 'member'> {
  member(fields?: Partial<Omit<UserEvent, 'id' | 'version'>>): Promise<TestMember>;
  admin(): Promise<TestMember>;
}

export async function startModeration(config: Partial<ModerationConfig> = {}): Promise<ModerationHarness> {
  const h = await startServiceForTest({
    service: 'moderation',
    streams: ['auth', 'listing'],
    create: (deps) => createModerationService({ ...deps, config }),
  });
  const announce = h.member;
  const harness: ModerationHarness = Object.assign(h, {
    async member(fields: Partial<Omit<UserEvent, 'id' | 'version'>> = {}): Promise<TestMember> {
      const { id, token, state } = await announce(fields);
      return {
        id,
        token,
        firstName: state.firstName,
        lastName: state.lastName,
        async listing(change = {}) {
          const listingId = new Types.ObjectId().toHexString();
          const event = await h.publish('listing.listing.created', {
            id: listingId, version: 1, ownerId: id, active: true, title: 'Stadsfiets', excerpt: 'Goed onderhouden.', listingType: 'item', acceptsItems: false, isPremium: false,
            initialValue: null, categoryIds: [], imageUrl: '', thumbnailUrl: '', placeholder: '', createdAt: new Date().toISOString(), ...change,
          });
          await h.projected('listings', listingId, event.payload.version);
          return listingId;
        },
      };
    },
    admin: () => harness.member({ firstName: 'Beheer', roles: ['Beheerder'] }),
  });
  return harness;
}
