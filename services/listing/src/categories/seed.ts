import { eventRegistry } from '@ruilplein/contracts';
import { createEvent, outboxFields } from '@ruilplein/service-kit';
import type { CategoryCollection } from './model.ts';

/** Icon names are lucide icon names; premium categories are only for Premium members (spec 2 §8). */
export const CATEGORIES = [
  { _id: 'elektronica', name: 'Elektronica', icon: 'laptop', isPremium: false },
  { _id: 'kleding', name: 'Kleding & accessoires', icon: 'shirt', isPremium: false },
  { _id: 'boeken', name: 'Boeken & tijdschriften', icon: 'book-open', isPremium: false },
  { _id: 'meubels', name: 'Meubels', icon: 'sofa', isPremium: false },
  { _id: 'huishouden', name: 'Huis & keuken', icon: 'cooking-pot', isPremium: false },
  { _id: 'tuin', name: 'Tuin & planten', icon: 'flower-2', isPremium: false },
  { _id: 'sport', name: 'Sport & buiten', icon: 'dumbbell', isPremium: false },
  { _id: 'speelgoed', name: 'Speelgoed & spellen', icon: 'puzzle', isPremium: false },
  { _id: 'kinderen', name: 'Baby & kinderen', icon: 'baby', isPremium: false },
  { _id: 'gereedschap', name: 'Gereedschap & doe-het-zelf', icon: 'wrench', isPremium: false },
  { _id: 'fietsen', name: 'Fietsen & onderdelen', icon: 'bike', isPremium: false },
  { _id: 'muziek', name: 'Muziek & instrumenten', icon: 'music', isPremium: false },
  { _id: 'hobby', name: 'Hobby & creatief', icon: 'palette', isPremium: false },
  { _id: 'dieren', name: 'Dierenbenodigdheden', icon: 'paw-print', isPremium: false },
  { _id: 'klussen', name: 'Klussen & reparaties', icon: 'hammer', isPremium: false },
  { _id: 'lessen', name: 'Lessen & bijles', icon: 'graduation-cap', isPremium: false },
  { _id: 'oppas', name: 'Oppas & zorg', icon: 'heart-handshake', isPremium: false },
  { _id: 'vervoer', name: 'Vervoer & verhuizen', icon: 'truck', isPremium: false },
  { _id: 'overig', name: 'Overig', icon: 'package', isPremium: false },
  { _id: 'vinyl', name: 'Vinyl & platenspelers', icon: 'disc-3', isPremium: true },
  { _id: 'smartwatches', name: 'Smartwatches', icon: 'watch', isPremium: true },
  { _id: 'gitaren', name: 'Gitaren & versterkers', icon: 'guitar', isPremium: true },
  { _id: 'cameras', name: "Camera's & lenzen", icon: 'camera', isPremium: true },
  { _id: 'design', name: 'Design & vintage', icon: 'lamp', isPremium: true },
] as const;

/**
 * Inserts missing categories and leaves existing ones alone (safe on every start and on several
 * replicas at once); each insert queues `listing.category.created` in the same write.
 */
export async function seedCategories(categories: CategoryCollection): Promise<number> {
  const result = await categories.bulkWrite(
    CATEGORIES.map((c, position) => {
      const event = createEvent(eventRegistry, 'listing.category.created', { id: c._id, version: 1, name: c.name, icon: c.icon, isPremium: c.isPremium });
      return {
        updateOne: {
          filter: { _id: c._id },
          update: { $setOnInsert: { ...c, position, ...outboxFields(event) } },
          upsert: true,
        },
      };
    }),
    { ordered: false },
  );
  return result.upsertedCount;
}
