// The command line of `npm run chaos`.
import { readFlags } from '@ruilplein/load';

export interface ChaosOptions {
  /** Simulated members of the load run (infra/load). */
  members: number;
  /** The load run's length; the kills start once the members have arrived and go on after it if need be. */
  minutes: number;
  /** Parts to kill, in this order: service names (every instance of the registry's, the gateway), then `nats`, `redis`, `store`. Empty: every part. */
  kill: string[];
  /** How long a killed part stays down before the runner starts it again. */
  downMs: number;
  /** Quiet time after the platform is whole again, before the next kill. */
  gapMs: number;
  seed: number;
  /** Instances of every service (`npm start -- --replicas N`): more than one, the clustered mode, where one instance goes down while the others serve. */
  replicas: number;
  smoke: boolean;
  /** Keep the platform's data dir (logs) after a run that held every invariant too. */
  keep: boolean;
}

/** The stores, killed after the services: NATS, Redis and the document store (FerretDB). */
export const STORE_PARTS = ['nats', 'redis', 'store'] as const;
export type StorePart = (typeof STORE_PARTS)[number];

export const USAGE = `npm run chaos -- [--members 50] [--minutes 5] [--kill auth,trade,nats] [--down 3] [--gap 5] [--seed 25] [--replicas 2] [--smoke] [--keep]
  Starts the platform as \`npm start\` does (on free ports, with stores of its own in a temp dir), runs
  the load generator, and meanwhile SIGKILLs each service in turn, then NATS, Redis and the store,
  each started again after --down seconds. Then it checks the invariants and prints the table.
  --members N   simulated members (default 50; smoke 12)
  --minutes M   the load run's length (default 5; smoke 0.75)
  --kill LIST   parts to kill, comma-separated (default every service, then nats, redis, store; smoke trade)
  --down S      seconds a killed part stays down (default 3; smoke 2)
  --gap S       seconds between the platform answering again and the next kill (default 5; smoke 2)
  --seed S      the members' choices (default 25)
  --replicas N  the clustered mode of \`npm start -- --replicas N\` (N instances of every service, a
                three-node NATS cluster): a service's kill takes down its first instance while the
                others serve, the nats kill one node (default 1: one instance, one NATS server)
  --smoke       a short run that kills one service (npm test's chaos smoke)
  --keep        keep the data dir and logs (always kept when an invariant fails)
Exits 1 when an invariant fails or a part does not answer again, 2 on bad arguments.`;

export function parseChaosOptions(argv: readonly string[]): ChaosOptions {
  const flags = readFlags(argv, { switches: ['smoke', 'keep'], values: ['members', 'minutes', 'kill', 'down', 'gap', 'seed', 'replicas'] });
  const smoke = flags.has('smoke');
  const number = flags.number;
  const kill = (flags.text('kill') ?? (smoke ? 'trade' : ''))
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const part of kill) if (!/^[a-z][a-z-]*$/.test(part)) throw new Error(`--kill: ${part} is not a part's name`);
  return {
    members: number('members', smoke ? 12 : 50, (n) => Number.isInteger(n) && n >= 2 && n <= 1000),
    minutes: number('minutes', smoke ? 0.75 : 5, (n) => n > 0 && n <= 120),
    kill,
    downMs: number('down', smoke ? 2 : 3, (n) => n >= 0 && n <= 120) * 1000,
    gapMs: number('gap', smoke ? 2 : 5, (n) => n >= 0 && n <= 300) * 1000,
    seed: number('seed', 25, Number.isInteger),
    replicas: number('replicas', 1, (n) => Number.isInteger(n) && n >= 1 && n <= 5),
    smoke,
    keep: flags.has('keep'),
  };
}
