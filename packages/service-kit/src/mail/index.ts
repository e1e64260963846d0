export * from './content.ts';
export * from './devmail.ts';
export * from './relay.ts';
export * from './transports.ts';
export * from './contacts.ts';
