import { DEFAULT_AVATAR, USER_MESSAGES, type PublicUser, type UpdateProfileFormSchema, type User } from '@ruilplein/contracts';
import { now as platformNow, badRequest, conflict, unauthorized, type Logger, type UploadedFile } from '@ruilplein/service-kit';
import { ImageRejected } from '@ruilplein/service-kit/upload';
import type { z } from 'zod';
import { toSessionUser, userEventFields } from '../accounts/events.ts';
import { stamped, userIdOf, type UserCollection, type UserDoc } from '../accounts/model.ts';
import { processAvatar } from '../avatars/image.ts';
import type { AvatarStore } from '../avatars/store.ts';
import type { PlaceSearch } from '../geo/search.ts';

type Form = z.output<typeof UpdateProfileFormSchema>;
type Located = Pick<UserDoc, 'city' | 'latitude' | 'longitude'>;

/** The member's own record: everything the profile page shows, nothing of passwords, tokens or suspensions. */
export function toUser(doc: UserDoc): User {
  return {
    ...toSessionUser(doc),
    lastName: doc.lastName,
    email: doc.email,
    ...(doc.city && { city: doc.city }),
    ...(doc.latitude != null && doc.longitude != null && { latitude: doc.latitude, longitude: doc.longitude }),
  };
}

/** Premium shows as a role while a subscription runs (spec 1 §6), so badges need no dates. */
export function toPublicUser(doc: UserDoc, now = platformNow()): PublicUser {
  const premium = doc.subscriptionEndsAt && doc.subscriptionEndsAt > now && !doc.roles.includes('Premium');
  return {
    id: doc._id.toString(),
    firstName: doc.firstName,
    lastName: doc.lastName,
    profilePicture: doc.profilePicture ?? DEFAULT_AVATAR,
    ...(doc.city && { city: doc.city }),
    role: premium ? [...doc.roles, 'Premium'] : [...doc.roles],
  };
}

/** City and coordinates as stored: coordinates as sent, else those of the best place found; no city clears all three. */
async function locate(form: Form, places: PlaceSearch): Promise<Located> {
  if (!form.city) return {};
  if (form.latitude !== undefined && form.longitude !== undefined) return { city: form.city, latitude: form.latitude, longitude: form.longitude };
  const [place] = await places.search(form.city, 1);
  if (!place) throw badRequest(USER_MESSAGES.cityNotFound, [{ path: 'body.city', message: USER_MESSAGES.cityNotFound }]);
  return { city: form.city, latitude: place.latitude, longitude: place.longitude };
}

async function encodePicture(file: UploadedFile | undefined): Promise<Buffer | undefined> {
  if (!file) return undefined;
  try {
    return await processAvatar(file.data);
  } catch (err) {
    if (err instanceof ImageRejected) throw badRequest(err.message, [{ path: 'files.profilePicture', message: err.message }]);
    throw err;
  }
}

export interface ProfileDeps {
  users: UserCollection;
  avatars: AvatarStore;
  places: PlaceSearch;
  /** Publish the queued event soon (the outbox relay's kick). */
  announce: () => void;
  logger: Logger;
}

/** Attempts before concurrent changes to the same account make an update give up. */
const ATTEMPTS = 3;

/**
 * Saves the profile form of the member `userId`. Everything is checked before anything is written;
 * the change and its `auth.user.updated` event go in one conditional write on the version read
 * (`updatedAt`), so the event always describes the record as written. A replaced picture is
 * removed afterwards; a picture stored for a write that did not happen is removed at once.
 */
export async function updateProfile(deps: ProfileDeps, userId: string, form: Form, file: UploadedFile | undefined): Promise<UserDoc> {
  const current = await deps.users.findOne({ _id: userIdOf(userId) });
  if (!current) throw unauthorized();
  if (form.email !== undefined && form.email !== current.email) {
    throw badRequest(USER_MESSAGES.emailNotChangeable, [{ path: 'body.email', message: USER_MESSAGES.emailNotChangeable }]);
  }
  const located = await locate(form, deps.places);
  const webp = await encodePicture(file);
  const picture = webp && (await deps.avatars.save(userId, webp));

  const changes = { firstName: form.firstName, lastName: form.lastName, ...located, ...(picture && { profilePicture: picture }) };

  let before: UserDoc | null = current;
  let written = false;
  try {
    for (let attempt = 0; before && !written && attempt < ATTEMPTS; attempt++) {
      // Without a city the stored city and coordinates go.
      const { city: _city, latitude: _latitude, longitude: _longitude, ...kept } = before;
      const result = await deps.users.updateOne(
        { _id: before._id, updatedAt: before.updatedAt },
        stamped({
          $set: { ...changes, ...userEventFields('auth.user.updated', { ...kept, ...changes }) },
          ...(!located.city && { $unset: { city: '', latitude: '', longitude: '' } }),
        }),
      );
      written = result.modifiedCount === 1;
      if (!written) before = await deps.users.findOne({ _id: userIdOf(userId) });
    }
  } finally {
    if (!written) await deps.avatars.remove(picture);
  }
  if (!before) throw unauthorized();
  if (!written) throw conflict('Je profiel werd tegelijk ergens anders gewijzigd. Probeer het opnieuw.');

  deps.announce();
  // The profile is saved; a picture that could not be removed is only litter.
  if (picture) await deps.avatars.remove(before.profilePicture).catch((err) => deps.logger.warn({ err, userId }, 'old avatar not removed'));
  const saved = await deps.users.findOne({ _id: userIdOf(userId) });
  if (!saved) throw unauthorized();
  return saved;
}
