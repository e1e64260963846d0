// Leaflet and its stylesheet, for every map on the page (the shell's profile map, the listings
// remote's search map): @ruilplein/ui is a shared singleton, so this loader is the shell's copy
// for every remote, and Leaflet's script and CSS are downloaded and put in the page once, only
// when a map is first shown. A map imports neither itself (its stylesheet was in two bundles).
import type * as Leaflet from 'leaflet';

let loading: Promise<typeof Leaflet> | undefined;

/** Leaflet, with its stylesheet in the page; the same promise for every map. */
export function loadLeaflet(): Promise<typeof Leaflet> {
  loading ??= Promise.all([import('leaflet'), import('leaflet/dist/leaflet.css')]).then(([module]) => {
    // A CommonJS (UMD) module: its exports may come as the namespace's default.
    const withDefault = module as typeof Leaflet & { default?: typeof Leaflet };
    return withDefault.default ?? withDefault;
  });
  return loading;
}
