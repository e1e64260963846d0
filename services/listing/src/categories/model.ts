import { collection, type Connection } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

export interface CategoryDoc {
  /** A stable slug, so ids are the same in every environment and seeding stays idempotent. */
  _id: string;
  name: string;
  icon: string;
  isPremium: boolean;
  position: number;
}

export const categoryCollection = (db: Connection) => collection<CategoryDoc>(db, 'categories');
export type CategoryCollection = mongo.Collection<CategoryDoc>;

export const toCategory = (doc: CategoryDoc) => ({ id: doc._id, name: doc.name, icon: doc.icon, isPremium: doc.isPremium });
