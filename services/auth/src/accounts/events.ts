import { DEFAULT_AVATAR, eventRegistry, type SessionUser, type UserEvent } from '@ruilplein/contracts';
import { createEvent, outboxFields } from '@ruilplein/service-kit';
import type { UserDoc } from './model.ts';

type Member = Pick<UserDoc, '_id' | 'version' | 'firstName' | 'lastName' | 'profilePicture' | 'city' | 'latitude' | 'longitude' | 'roles' | 'activated' | 'subscriptionEndsAt'>;

/** What other services learn about a member: no email, password, suspension or token data. */
export function userEventPayload(user: Member & { version: number }): UserEvent {
  return {
    id: user._id.toString(),
    version: user.version,
    firstName: user.firstName,
    lastName: user.lastName,
    profilePicture: user.profilePicture ?? DEFAULT_AVATAR,
    ...(user.city && { city: user.city }),
    ...(user.latitude != null && user.longitude != null && { latitude: user.latitude, longitude: user.longitude }),
    roles: [...user.roles],
    activated: user.activated,
    ...(user.subscriptionEndsAt && { subscriptionEndsAt: user.subscriptionEndsAt.toISOString() }),
  };
}

export type UserEventType = 'auth.user.registered' | 'auth.user.activated' | 'auth.user.updated';

/**
 * `$set` fields queueing one `auth.user.*` event in the user's own outbox, and the user's next
 * version (the event carries it, so projections can skip older states): `user` is the record as
 * read, with the changes applied. Write them in the same update as the change they announce, one
 * that is conditional on what was read, then `relay.kick()`.
 */
export function userEventFields(type: UserEventType, user: Member) {
  const version = (user.version ?? 0) + 1;
  return { version, ...outboxFields(createEvent(eventRegistry, type, userEventPayload({ ...user, version }))) };
}

/** The session copy of the user (spec 1 §3). */
export function toSessionUser(user: Pick<UserDoc, '_id' | 'roles' | 'firstName' | 'profilePicture' | 'activated' | 'subscriptionEndsAt'>): SessionUser {
  return {
    id: user._id.toString(),
    role: [...user.roles],
    firstName: user.firstName,
    profilePicture: user.profilePicture ?? DEFAULT_AVATAR,
    activated: user.activated,
    ...(user.subscriptionEndsAt && { subscriptionEndsAt: user.subscriptionEndsAt.toISOString() }),
  };
}
