import { outboxField, type Connection } from '@ruilplein/service-kit';
import { Schema } from 'mongoose';

export interface CategoryDoc {
  /** A stable slug, so ids are the same in every environment and seeding stays idempotent. */
  _id: string;
  name: string;
  icon: string;
  isPremium: boolean;
  position: number;
}

const schema = new Schema<CategoryDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    icon: { type: String, required: true },
    isPremium: { type: Boolean, required: true },
    position: { type: Number, required: true },
    ...outboxField,
  },
  { versionKey: false },
);

export const categoryModel = (db: Connection) => db.model<CategoryDoc>('Category', schema, 'categories');
export type CategoryModel = ReturnType<typeof categoryModel>;

export const toCategory = (doc: CategoryDoc) => ({ id: doc._id, name: doc.name, icon: doc.icon, isPremium: doc.isPremium });
