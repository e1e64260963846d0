// Leaflet and its stylesheet come from @ruilplein/ui's loader, once per page for every map (the
// listings remote's search map too), downloaded only when a profile shows its map.
import { useEffect, useRef, useState } from 'react';
import { loadLeaflet } from '@ruilplein/ui';
import * as styles from './ProfileMap.module.css';

interface MapTiles {
  tileUrl?: string;
  attribution?: string;
}

let tiles: Promise<MapTiles> | undefined;

/**
 * The tile service and its attribution (plain text) come from `/map.json`, served with the shell and
 * replaced per environment (like `/remotes.json`). Without it, or without an answer, the map shows
 * its marker on a blank ground.
 */
function mapTiles(): Promise<MapTiles> {
  tiles ??= fetch('/map.json', { cache: 'no-cache' })
    .then((res) => (res.ok ? (res.json() as Promise<MapTiles>) : {}))
    .catch(() => ({}));
  return tiles;
}


/** A round map (300 px, zoom 13) of the member's city with a marker and its popup (spec 1 §2, §9). */
export default function ProfileMap({ city, latitude, longitude }: { city: string; latitude: number; longitude: number }) {
  const element = useRef<HTMLDivElement>(null);
  const [attribution, setAttribution] = useState<string>();
  useEffect(() => {
    let current = true;
    let map: { remove(): void } | undefined;
    void loadLeaflet().then((L) => {
      if (!current || !element.current) return;
      // The round shape would cut Leaflet's corner controls: the attribution goes below it, zooming is by keyboard (+/-).
      const shown = L.map(element.current, { center: [latitude, longitude], zoom: 13, scrollWheelZoom: false, zoomControl: false, attributionControl: false });
      map = shown;
      void mapTiles().then((tiles) => {
        if (!current || !tiles.tileUrl) return;
        L.tileLayer(tiles.tileUrl, { maxZoom: 19 }).addTo(shown);
        setAttribution(tiles.attribution);
      });
      // A drawn pin: Leaflet's default marker images are looked up by a path guess that bundling breaks.
      const pin = L.divIcon({ className: styles.pin ?? '', html: '<span></span>', iconSize: [26, 26], iconAnchor: [13, 26], popupAnchor: [0, -26] });
      // As a text node: a string popup is HTML, and the city is the member's own text.
      const popup = document.createElement('span');
      popup.textContent = city;
      L.marker([latitude, longitude], { icon: pin, title: city, alt: city }).addTo(shown).bindPopup(popup).openPopup();
    });
    return () => {
      current = false;
      map?.remove();
    };
  }, [city, latitude, longitude]);
  return (
    <figure className={styles.figure}>
      <div ref={element} className={styles.map} role="region" aria-label={`Kaart van ${city}`} data-testid="profile-map" />
      {attribution && <figcaption className={styles.attribution}>{attribution}</figcaption>}
    </figure>
  );
}
