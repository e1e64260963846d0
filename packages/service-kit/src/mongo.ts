import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import mongoose, { type Connection, type mongo } from 'mongoose';

export type { Connection };

const tracer = trace.getTracer('@ruilplein/service-kit');

/** One database per service, named after it. Its commands are spans of the request or handler that sends them (traceCommands). */
export async function connectMongo(url: string, dbName: string): Promise<Connection> {
  const conn = mongoose.createConnection(url, { dbName, serverSelectionTimeoutMS: 5000, monitorCommands: true });
  traceCommands(conn.getClient());
  await conn.asPromise();
  return conn;
}

/** Handshakes and session bookkeeping: no question of the code's. */
const UNTRACED = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'endSessions', 'saslStart', 'saslContinue', 'buildInfo']);

/**
 * A client span per store command (`find listings`, `update offers`) under the span that sent it,
 * from the driver's command monitoring, so a trace shows where a slow request spent its time. The
 * driver emits `commandStarted` synchronously inside the caller's call, so the active context is the
 * caller's. Commands outside any trace (the outbox relay's polls, sweeps) get no span: they would
 * each be a trace of their own.
 */
export function traceCommands(client: mongo.MongoClient): void {
  const open = new Map<string, Span>();
  const key = (e: { connectionId?: unknown; requestId: number }) => `${String(e.connectionId)}/${e.requestId}`;
  client.on('commandStarted', (e) => {
    if (UNTRACED.has(e.commandName)) return;
    const parent = context.active();
    if (!trace.getSpan(parent)) return;
    const target: unknown = e.command[e.commandName];
    const collectionName = typeof target === 'string' ? target : undefined;
    const span = tracer.startSpan(
      collectionName ? `${e.commandName} ${collectionName}` : e.commandName,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'mongodb', 'db.namespace': e.databaseName, 'db.operation.name': e.commandName, ...(collectionName && { 'db.collection.name': collectionName }) },
      },
      parent,
    );
    open.set(key(e), span);
  });
  const end = (e: { connectionId?: unknown; requestId: number }, failure?: string) => {
    const span = open.get(key(e));
    if (!span) return;
    open.delete(key(e));
    if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
    span.end();
  };
  client.on('commandSucceeded', (e) => end(e));
  client.on('commandFailed', (e) => end(e, e.failure.message));
}

export const pingMongo = (conn: Connection) => conn.db!.admin().ping();

/**
 * The one way services reach their data: the driver's own collection, typed with its documents.
 * mongoose is only the connection (pooling, readiness); no schemas or models, so nothing casts,
 * validates or adds defaults behind the code's back (zod checks input at the edges, and every write
 * states what it stores). `db` must be connected (`connectMongo` resolves once it is).
 */
export function collection<T extends mongo.BSON.Document>(db: Connection, name: string): mongo.Collection<T> {
  if (!db.db) throw new Error(`mongo: collection ${name} asked for before the store is connected`);
  return db.db.collection<T>(name);
}

/** One index of a collection: its keys in order (1 ascending, -1 descending) and the driver's options (`unique`, `name`...). */
export type IndexSpec = Omit<mongo.IndexDescription, 'key'> & { key: Record<string, 1 | -1> };

/**
 * Creates the indexes a collection's queries rely on (idempotent: an existing one with the same keys
 * and options is kept), as mongoose's schemas did at start. Await it before the first write when an
 * index is a rule (a unique one). FerretDB filters through `_id` only but keeps unique indexes (code
 * 11000); MongoDB's planner uses the others.
 */
export async function ensureIndexes<T extends mongo.BSON.Document>(target: mongo.Collection<T>, specs: readonly IndexSpec[]): Promise<void> {
  // One command per index, as mongoose did: FerretDB 1.24 drops the connection when one
  // `createIndexes` names several indexes that all exist already (every start after the first).
  for (const { key, ...options } of specs) await target.createIndex(key, options);
}

/** Whether a document matches (reads its `_id` only), as mongoose's `Model.exists` answered. */
export async function exists<T extends mongo.BSON.Document>(target: mongo.Collection<T>, filter: mongo.Filter<T>): Promise<boolean> {
  return (await target.findOne(filter, { projection: { _id: 1 } })) !== null;
}
