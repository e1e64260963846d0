// What a remote declares about itself: the pages it serves and the entries it adds to the dashboard
// menu. Plain data (no React), so its build can read it and publish it next to its manifest
// (`area.json`, see packages/frontend-build); the shell reads those files to build its router and
// sidebar before it loads any of the remote's code.

/** Who sees a page or menu entry: every signed-in member, only Premium members (and admins), only admins. */
export type Audience = 'member' | 'premium' | 'admin';

/** Where the shell mounts a remote: inside the dashboard frame (`/dashboard/…`) or as the admin area (`/admin/…`, own layout). */
export type Mount = 'dashboard' | 'admin';

export const mountBase: Record<Mount, string> = { dashboard: '/dashboard', admin: '/admin' };

export interface AreaPage {
  /** Relative to the mount's base, react-router syntax: `search`, `listing/:id`, `''` for the base itself. */
  path: string;
  /** Shown as the page's heading and in the tab. */
  title: string;
  /** A path to visit it with in checks (axe, smoke): required when `path` has parameters. */
  example?: string;
  /** Every signed-in member unless told. */
  audience?: Audience;
}

export interface MenuEntry {
  /** An absolute path the entry opens: `/dashboard/search`. */
  to: string;
  label: string;
  /** A lucide icon name (`search`, `heart`); the build turns it into the drawing (`iconNode`). */
  icon: string;
  /** Place in the sidebar, low first; the shell's own entries use 0 (Dashboard) and 90 (Mijn profiel). */
  order: number;
  audience: Audience;
}

export interface AreaDeclaration {
  mount: Mount;
  pages: readonly AreaPage[];
  menu: readonly MenuEntry[];
}

/** An icon's drawing: lucide's element list (`['path', { d: '…' }]`). */
export type IconNode = readonly (readonly [tag: string, attrs: Record<string, string>])[];

/** `area.json` as a remote's build publishes it. */
export interface PublishedArea extends AreaDeclaration {
  /** The federation name (`listings`). */
  name: string;
  menu: readonly (MenuEntry & { iconNode: IconNode })[];
  /** The shared singletons it was built against, with the version range each needs (`^19.3.1`). */
  requires: Record<string, string>;
}

/** The path a page answers at: `/dashboard/listing/:id`. */
export const fullPath = (mount: Mount, page: Pick<AreaPage, 'path'>) => (page.path ? `${mountBase[mount]}/${page.path}` : mountBase[mount]);

/** Whether a member with these rights sees something meant for `audience`. */
export function canSee(audience: Audience | undefined, rights: { isPremium: boolean; isAdmin: boolean }): boolean {
  if (audience === 'admin') return rights.isAdmin;
  if (audience === 'premium') return rights.isPremium;
  return true;
}

/** What is wrong with a declaration ([] when nothing): checked by the build, so a broken one never ships. */
export function areaProblems(area: AreaDeclaration): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const page of area.pages) {
    if (page.path.startsWith('/') || page.path.endsWith('/')) problems.push(`page '${page.path}': a path relative to ${mountBase[area.mount]}, without leading or trailing slash`);
    if (seen.has(page.path)) problems.push(`page '${page.path}' is declared twice`);
    seen.add(page.path);
    if (!page.title.trim()) problems.push(`page '${page.path}' has no title`);
    if (page.path.includes(':') && !page.example) problems.push(`page '${page.path}' has parameters and no example path`);
    if (page.example && !page.example.startsWith(`${mountBase[area.mount]}/`)) problems.push(`page '${page.path}': example '${page.example}' is not under ${mountBase[area.mount]}`);
  }
  for (const entry of area.menu) {
    if (!entry.to.startsWith('/')) problems.push(`menu entry '${entry.label}': 'to' must be an absolute path`);
    if (!entry.label.trim()) problems.push(`menu entry to '${entry.to}' has no label`);
    if (!/^[a-z0-9-]+$/.test(entry.icon)) problems.push(`menu entry '${entry.label}': icon '${entry.icon}' is not a lucide icon name`);
  }
  return problems;
}
