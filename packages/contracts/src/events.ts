import { z } from 'zod';
import type { ServiceName } from './routes.ts';

/**
 * A service's events: NATS subject → zod schema of the payload, `<service>.<entity>.<past-tense
 * verb>`. Each service declares its own in `<service>/events.ts`; `eventRegistry` joins them.
 */
export type EventRegistry = Record<string, z.ZodType>;
export type Subject<R extends EventRegistry> = keyof R & string;
export type PayloadOf<R extends EventRegistry, S extends keyof R> = z.output<R[S]>;

/** Declares `service`'s events; a subject of another service does not compile (the registry test checks it too). */
export const defineEvents = <S extends ServiceName, T extends Record<string, z.ZodType>>(
  _service: S,
  events: T & { [K in Exclude<keyof T, `${S}.${string}.${string}`>]: never },
): T => events;

/**
 * The version of a subject's payload schema, carried by every envelope: 1 unless the schema
 * declares another (`schema.meta({ schemaVersion: 2 })`). A change a consumer of the old schema
 * cannot read bumps it (and the consumers learn both before the publisher sends the new one);
 * compatible additions keep it.
 */
export const schemaVersionOf = (schema: z.ZodType): number => {
  const declared = schema.meta()?.schemaVersion;
  return typeof declared === 'number' ? declared : 1;
};

export const EventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().regex(/^[a-z0-9-]+\.[a-z0-9-]+\.[a-z0-9-]+$/, 'verwacht <dienst>.<entiteit>.<werkwoord>'),
  /** The payload's schema version; events from before the field existed are version 1. */
  schemaVersion: z.number().int().positive().default(1),
  occurredAt: z.iso.datetime(),
  payload: z.unknown(),
});

export interface EventEnvelope<P = unknown> {
  id: string;
  type: string;
  schemaVersion: number;
  occurredAt: string;
  payload: P;
}

/** The service (and JetStream stream) that publishes a subject: its first segment. */
export function streamOf(subject: string): string {
  return subject.slice(0, subject.indexOf('.'));
}
