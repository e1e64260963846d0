// What `npm run size` and `npm run lcp` share: the federated builds, the one-bundle build they are
// compared with, a signed-in member and the API answers a member page needs to show its content.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rspack, type Configuration, type MultiStats } from '@rspack/core';
import { baseConfig, hostPlugins, htmlPage } from '@ruilplein/frontend-build';

export const repo = resolve(import.meta.dirname, '../..');
export const remotes = ['listings', 'trades', 'admin'];
/** Per run: a size and an lcp run (or a browser test's smoke run) at the same time must not build into each other's. */
export const oneBundleDir = join(tmpdir(), `ruilplein-one-bundle-${process.pid}`);
export const removeOneBundle = () => rm(oneBundleDir, { recursive: true, force: true });

export async function build(configs: Configuration[]) {
  const compiler = rspack(configs);
  const stats = await new Promise<MultiStats | undefined>((done, fail) => compiler.run((err, result) => (err ? fail(err) : done(result))));
  await new Promise<void>((done) => compiler.close(() => done()));
  if (!stats || stats.hasErrors()) throw new Error(stats?.toString('errors-only') ?? 'build failed');
}

/** The shell and every remote as `npm run build` makes them, into their own dist folders. */
export async function federatedConfigs(): Promise<Configuration[]> {
  const apps = ['shell', ...remotes.map((name) => `mfe-${name}`)];
  return Promise.all(apps.map(async (app) => ((await import(join(repo, app, 'rspack.config.ts'))) as { default: () => Configuration }).default()));
}

/** The same shell, with each remote's routes a lazily imported chunk of one build instead of a remote. */
export function oneBundleConfig(): Configuration {
  const shell = join(repo, 'shell');
  const base = baseConfig(shell, false);
  return {
    ...base,
    entry: { main: './src/index' },
    output: { ...base.output, path: oneBundleDir, publicPath: '/' },
    plugins: [
      htmlPage(),
      new rspack.CopyRspackPlugin({ patterns: [{ from: join(shell, 'public') }] }),
      ...hostPlugins(),
      new rspack.NormalModuleReplacementPlugin(/shell[\\/]src[\\/]remotes\.ts$/, join(shell, 'src/remotes.bundled.ts')),
    ],
  };
}

/** Each remote's dist, served under `/mfe/<name>/` (the one-bundle build reads their area.json files too). */
export const remoteDirs = (): Record<string, string> => Object.fromEntries(remotes.map((name) => [name, join(repo, `mfe-${name}/dist`)]));

/** A member as the session keeps them (packages/ui/src/session.tsx); the servers below accept them. */
export const member = { id: 'size-member', firstName: 'Sanne', role: ['Gebruiker'], profilePicture: '/uploads/avatars/default_avatar.jpg', activated: true };

/** The session's storage keys (packages/ui/src/session.tsx), as an init script's argument. */
export const sessionStorage = { user: JSON.stringify(member), token: 'size-token' };

const party = (id: string, firstName: string) => ({ id, firstName, lastName: 'de Vries', profilePicture: '/uploads/avatars/default_avatar.jpg' });
const item = (listingID: string, userID: string, title: string) => ({
  listingID,
  userID,
  title,
  description: 'Goed onderhouden, ophalen in de buurt.',
  imageUrl: '/uploads/none.jpg',
  thumbnailUrl: '/uploads/none.jpg',
  isDefault: false,
});

/** Offer 1 between the member and a neighbour (packages/contracts' OfferSchema). */
const offer = {
  id: 1,
  senderID: member.id,
  receiverID: 'neighbour',
  sender: party(member.id, member.firstName),
  receiver: party('neighbour', 'Daan'),
  status: 'Pending',
  message: 'Zullen we ruilen?',
  senderConfirmed: false,
  receiverConfirmed: false,
  listingOfferedOnID: 'bike',
  listingOfferedOn: item('bike', 'neighbour', 'Stadsfiets'),
  requestedListings: [item('bike', 'neighbour', 'Stadsfiets')],
  offeredListings: [item('lamp', member.id, 'Bureaulamp')],
  items: [item('bike', 'neighbour', 'Stadsfiets'), item('lamp', member.id, 'Bureaulamp')],
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

/** The API answers a member page needs; everything else under /api is a 404, which the pages tolerate. */
export const apiAnswers: Record<string, unknown> = {
  '/api/category': [
    { id: 'elektronica', name: 'Elektronica', icon: 'laptop', isPremium: false },
    { id: 'vinyl', name: 'Vinyl & platenspelers', icon: 'disc-3', isPremium: true },
  ],
  '/api/auth/verify': { user: member },
  '/api/user/status': { blocked: false, reason: null, unblockDate: null },
  '/api/tradeoffer/1': offer,
};

/** The member pages measured, and what shows their content. */
export const memberPages = [
  { path: '/dashboard/search', ready: '[data-testid="category"]' },
  { path: '/dashboard/tradeoffer/1', ready: '[data-testid="panel-offered"]' },
];
