// The search page's map (import this file with React.lazy). Leaflet and its stylesheet come from
// @ruilplein/ui's loader: one copy in the page for every map (the shell's profile map too).
import { useEffect, useRef, useState } from 'react';
import type * as L from 'leaflet';
import { loadLeaflet } from '@ruilplein/ui';
import * as styles from './ListingMap.module.css';

interface MapTiles {
  tileUrl?: string;
  attribution?: string;
}

let tiles: Promise<MapTiles> | undefined;

/**
 * The tile service and its attribution (plain text), from the shell's `/map.json` (replaced per
 * environment). Without it, or without an answer, the circle shows on a blank ground.
 */
function mapTiles(): Promise<MapTiles> {
  tiles ??= fetch('/map.json', { cache: 'no-cache' })
    .then((res) => (res.ok ? (res.json() as Promise<MapTiles>) : {}))
    .catch(() => ({}));
  return tiles;
}

/** Zoom of the search map (spec 2 §9). */
const ZOOM = 7;

/**
 * A round map (zoom 7) centred on the member's place, with the search radius drawn as a circle in
 * km (spec 2 §2, §9). The circle follows `radiusKm` without the map being built again.
 */
export default function ListingMap({ city, latitude, longitude, radiusKm }: { city: string; latitude: number; longitude: number; radiusKm: number }) {
  const element = useRef<HTMLDivElement>(null);
  const circle = useRef<L.Circle | null>(null);
  // The radius when the map is built (it loads after the first render); later ones move the circle.
  const radius = useRef(radiusKm);
  const [attribution, setAttribution] = useState<string>();
  useEffect(() => {
    let current = true;
    let map: L.Map | undefined;
    void loadLeaflet().then((leaflet) => {
      if (!current || !element.current) return;
      // The round shape would cut Leaflet's corner controls: the attribution goes below it, zooming is by keyboard (+/-).
      const built = leaflet.map(element.current, { center: [latitude, longitude], zoom: ZOOM, scrollWheelZoom: false, zoomControl: false, attributionControl: false });
      map = built;
      void mapTiles().then((found) => {
        if (!current || !found.tileUrl) return;
        leaflet.tileLayer(found.tileUrl, { maxZoom: 19 }).addTo(built);
        setAttribution(found.attribution);
      });
      // Drawings only: nothing on the map takes a click or the keyboard's focus.
      const color = getComputedStyle(element.current).getPropertyValue('--rp-color-green').trim() || '#1f7a4d';
      circle.current = leaflet.circle([latitude, longitude], { radius: radius.current * 1000, color, weight: 2, fillOpacity: 0.12, interactive: false }).addTo(built);
      leaflet.circleMarker([latitude, longitude], { radius: 5, color, weight: 2, fillColor: color, fillOpacity: 1, interactive: false }).addTo(built);
    });
    return () => {
      current = false;
      circle.current = null;
      map?.remove();
    };
    // Built once per place: the radius has an effect of its own below.
  }, [latitude, longitude]);
  useEffect(() => {
    radius.current = radiusKm;
    circle.current?.setRadius(radiusKm * 1000);
  }, [radiusKm]);
  return (
    <figure className={styles.figure}>
      <div ref={element} className={styles.map} role="region" aria-label={`Kaart rond ${city} met een straal van ${radiusKm} km`} data-testid="search-map" />
      {attribution && <figcaption className={styles.attribution}>{attribution}</figcaption>}
    </figure>
  );
}
