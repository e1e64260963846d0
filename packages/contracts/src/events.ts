import { z } from 'zod';
import { UserDeletedEventSchema, UserEventSchema } from './http/auth.ts';
import { CategorySchema } from './http/category.ts';

/** Every NATS subject with the zod schema of its payload: `<service>.<entity>.<past-tense verb>`. */
export const eventRegistry = {
  'listing.category.created': CategorySchema,
  'auth.user.registered': UserEventSchema,
  'auth.user.activated': UserEventSchema,
  'auth.user.updated': UserEventSchema,
  'auth.user.deleted': UserDeletedEventSchema,
} as const;

export type EventRegistry = Record<string, z.ZodType>;
export type Subject<R extends EventRegistry = typeof eventRegistry> = keyof R & string;
export type PayloadOf<R extends EventRegistry, S extends keyof R> = z.output<R[S]>;

export const EventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().regex(/^[a-z0-9-]+\.[a-z0-9-]+\.[a-z0-9-]+$/, 'verwacht <dienst>.<entiteit>.<werkwoord>'),
  occurredAt: z.iso.datetime(),
  payload: z.unknown(),
});

export interface EventEnvelope<P = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  payload: P;
}

/** The service (and JetStream stream) that publishes a subject: its first segment. */
export function streamOf(subject: string): string {
  return subject.slice(0, subject.indexOf('.'));
}
