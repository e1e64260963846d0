import mongoose, { type Connection } from 'mongoose';

export type { Connection };

/** One database per service, named after it. */
export async function connectMongo(url: string, dbName: string): Promise<Connection> {
  const conn = mongoose.createConnection(url, { dbName, serverSelectionTimeoutMS: 5000 });
  await conn.asPromise();
  return conn;
}

export const pingMongo = (conn: Connection) => conn.db!.admin().ping();
