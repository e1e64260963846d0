// The local demo data: what local mode (`npm start`, the tests' platforms) seeds, and what the checks,
// benches and browser tests sign in with and look for. One copy here because several parts know it
// (auth and listing seed it; infra/checks, the benches and e2e use it) and none may import another's code.
// Node only (not in the browser entry): the ids are hashes.
import { createHash } from 'node:crypto';
import type { Role } from './auth/rules.ts';
import type { ListingType } from './listing/rules.ts';

/** Every demo account's password (local mode only; the seed never runs elsewhere). */
export const DEMO_PASSWORD = 'Ruilen123';
export const DEMO_ADMIN_EMAIL = 'beheerder@ruilplein.local';

export interface DemoMember {
  firstName: string;
  lastName: string;
  email: string;
  city: string;
  latitude: number;
  longitude: number;
  roles: Role[];
}

/**
 * The demo members auth seeds. The listing service learns their ids only from auth's events, which
 * carry no e-mail address: it recognises them by name and place together.
 */
export const DEMO_MEMBERS = {
  bea: { firstName: 'Bea', lastName: 'Beheer', email: DEMO_ADMIN_EMAIL, city: 'Utrecht', latitude: 52.0907, longitude: 5.1214, roles: ['Gebruiker', 'Beheerder'] },
  sanne: { firstName: 'Sanne', lastName: 'Jansen', email: 'sanne@ruilplein.local', city: 'Utrecht', latitude: 52.0907, longitude: 5.1214, roles: ['Gebruiker'] },
  daan: { firstName: 'Daan', lastName: 'de Vries', email: 'daan@ruilplein.local', city: 'Amsterdam', latitude: 52.3676, longitude: 4.9041, roles: ['Gebruiker'] },
  fatima: { firstName: 'Fatima', lastName: 'El Amrani', email: 'fatima@ruilplein.local', city: 'Rotterdam', latitude: 51.9244, longitude: 4.4777, roles: ['Gebruiker'] },
  lotte: { firstName: 'Lotte', lastName: 'Peeters', email: 'lotte@ruilplein.local', city: 'Antwerpen', latitude: 51.2194, longitude: 4.4025, roles: ['Gebruiker', 'Premium'] },
} satisfies Record<string, DemoMember>;
export type DemoOwner = keyof typeof DEMO_MEMBERS;

export interface DemoListing {
  owner: DemoOwner;
  title: string;
  description: string;
  listingType: ListingType;
  acceptsItems?: boolean;
  categoryIds: string[];
  initialValue?: number;
  isPremium?: boolean;
  /** How long ago it was placed: under six hours only Premium members (and the owner) see it. */
  hoursAgo: number;
  color: string;
  /** The drawing on its picture (services/listing/src/seed/pictures.ts). */
  shape: string;
  /** Two photos instead of one. */
  second?: boolean;
}

const d = (days: number) => days * 24;

/**
 * Thirty listings in the demo members' places (Utrecht, Amsterdam, Rotterdam, Antwerpen): items
 * and services, regular and premium categories, some premium-only, some newer than six hours.
 * Sanne, a member without Premium, has four active listings: one more is allowed, a sixth is not.
 */
export const DEMO_LISTINGS: readonly DemoListing[] = [
  // Sanne (Utrecht)
  { owner: 'sanne', title: 'Stadsfiets met drie versnellingen', description: 'Degelijke damesfiets, 28 inch, terugtraprem en drie versnellingen. Banden vorig jaar vervangen, slot en sleutels erbij.', listingType: 'item', categoryIds: ['fietsen'], initialValue: 120, hoursAgo: d(3), color: '#60a5fa', shape: 'bike', second: true },
  { owner: 'sanne', title: 'Stapel kinderboeken (8 stuks)', description: 'Prentenboeken en eerste leesboeken (AVI M3 tot E4), goed verzorgd. Samen te ruil.', listingType: 'item', categoryIds: ['boeken', 'kinderen'], initialValue: 15, hoursAgo: d(30), color: '#f9a8d4', shape: 'book' },
  { owner: 'sanne', title: 'Hulp bij je moestuin', description: 'Ik help een ochtend met wieden, zaaien of oogsten. Ruil graag tegen groente, stekjes of een andere dienst.', listingType: 'service', acceptsItems: true, categoryIds: ['tuin'], hoursAgo: 2, color: '#86efac', shape: 'plant' },
  { owner: 'sanne', title: 'Bijles wiskunde onderbouw', description: 'Bijles wiskunde voor de brugklas tot en met klas 3, bij jou of bij mij thuis. Een uur per keer, ruil tegen een andere dienst.', listingType: 'service', categoryIds: ['lessen'], initialValue: 25, hoursAgo: d(5), color: '#fcd34d', shape: 'lesson' },
  // Daan (Amsterdam)
  { owner: 'daan', title: 'Boormachine met klopfunctie', description: 'Bosch klopboormachine, 600 W, met koffer en een set boren voor hout, steen en metaal.', listingType: 'item', categoryIds: ['gereedschap'], initialValue: 40, hoursAgo: d(2), color: '#93c5fd', shape: 'tool' },
  { owner: 'daan', title: 'Verhuishulp met bakfiets', description: 'Een middag sjouwen en rijden met mijn bakfiets binnen de ring. Een krat bier of een wederdienst is prima.', listingType: 'service', acceptsItems: true, categoryIds: ['vervoer'], hoursAgo: d(4), color: '#fdba74', shape: 'truck' },
  { owner: 'daan', title: 'Gitaarles voor beginners', description: 'Akkoorden, ritme en je eerste liedjes in vijf lessen. Eigen gitaar meenemen; ik ruil alleen tegen diensten.', listingType: 'service', categoryIds: ['muziek', 'lessen'], hoursAgo: d(10), color: '#c4b5fd', shape: 'music' },
  { owner: 'daan', title: 'Eikenhouten eettafel voor zes', description: 'Massief eiken, 180 bij 90 cm, wat gebruikssporen. Zelf ophalen op de derde verdieping.', listingType: 'item', categoryIds: ['meubels'], initialValue: 150, hoursAgo: 1, color: '#d6a77a', shape: 'sofa', second: true },
  { owner: 'daan', title: 'Bordspellen Catan en Carcassonne', description: 'Beide compleet, met de uitbreiding voor vijf tot zes spelers van Catan.', listingType: 'item', categoryIds: ['speelgoed'], initialValue: 30, hoursAgo: d(7), color: '#fca5a5', shape: 'game' },
  // Fatima (Rotterdam)
  { owner: 'fatima', title: 'Naaimachine Singer', description: 'Werkt prima, met voetpedaal, spoeltjes en een doos garen. Ideaal om mee te beginnen.', listingType: 'item', categoryIds: ['hobby', 'huishouden'], initialValue: 80, hoursAgo: d(6), color: '#f0abfc', shape: 'box' },
  { owner: 'fatima', title: 'Krabpaal voor katten', description: 'Krabpaal van 1,20 m met twee plateaus en een holletje. Onze kat vond de bank leuker.', listingType: 'item', categoryIds: ['dieren'], initialValue: 20, hoursAgo: d(12), color: '#fde68a', shape: 'paw' },
  { owner: 'fatima', title: 'Oppas op woensdagmiddag', description: 'Ervaren oppas voor kinderen vanaf 2 jaar, woensdag van 12 tot 18 uur. Ruil tegen een andere dienst.', listingType: 'service', categoryIds: ['oppas'], hoursAgo: d(3), color: '#fbcfe8', shape: 'heart' },
  { owner: 'fatima', title: 'Winterjas maat M', description: 'Warme gewatteerde winterjas, donkerblauw, één seizoen gedragen.', listingType: 'item', categoryIds: ['kleding'], initialValue: 45, hoursAgo: 4, color: '#a5b4fc', shape: 'shirt' },
  { owner: 'fatima', title: 'Je fiets laten repareren', description: 'Band plakken, remmen afstellen, ketting vervangen: ik kom langs met gereedschap. Onderdelen ruil ik ook graag.', listingType: 'service', acceptsItems: true, categoryIds: ['klussen', 'fietsen'], hoursAgo: d(9), color: '#67e8f9', shape: 'tool' },
  // Bea (Utrecht; as Beheerder she has Premium rights)
  { owner: 'bea', title: 'Senseo koffiezetapparaat', description: 'Senseo Original, ontkalkt en schoon, met een zak pads.', listingType: 'item', categoryIds: ['huishouden'], initialValue: 25, hoursAgo: d(15), color: '#fcd34d', shape: 'box' },
  { owner: 'bea', title: 'Stekjes van kamerplanten', description: 'Monstera, pannenkoekplant en graslelie, geworteld in een potje. Per stuk te ruil.', listingType: 'item', categoryIds: ['tuin'], initialValue: 5, hoursAgo: d(1), color: '#4ade80', shape: 'plant', second: true },
  { owner: 'bea', title: 'Laptop repareren en installeren', description: 'Trage laptop? Ik installeer hem opnieuw, vervang de schijf of het scherm. Onderdelen of een wederdienst als ruil.', listingType: 'service', acceptsItems: true, categoryIds: ['elektronica', 'klussen'], hoursAgo: d(8), color: '#7dd3fc', shape: 'tool' },
  { owner: 'bea', title: 'Platenspeler Technics SL-1200', description: 'De klassieker, met nieuwe naald en stofkap. Alleen voor premium leden.', listingType: 'item', categoryIds: ['vinyl'], initialValue: 450, isPremium: true, hoursAgo: d(2), color: '#a78bfa', shape: 'music', second: true },
  { owner: 'bea', title: 'Tent voor vier personen', description: 'Koepeltent, twee keer gebruikt, met grondzeil en haringen.', listingType: 'item', categoryIds: ['sport'], initialValue: 60, hoursAgo: d(20), color: '#34d399', shape: 'box' },
  { owner: 'bea', title: 'Je kozijnen schilderen', description: 'Schuren, gronden en lakken van kozijnen en deuren, binnen of buiten. Alleen te ruil tegen een dienst.', listingType: 'service', categoryIds: ['klussen'], hoursAgo: 3, color: '#fdba74', shape: 'tool' },
  // Lotte (Antwerpen, Premium)
  { owner: 'lotte', title: 'Analoge camera Canon AE-1', description: 'Werkt perfect, met 50 mm f/1.8 lens en draagriem. Alleen voor premium leden.', listingType: 'item', categoryIds: ['cameras'], initialValue: 180, isPremium: true, hoursAgo: d(5), color: '#94a3b8', shape: 'camera', second: true },
  { owner: 'lotte', title: 'Smartwatch Garmin Venu', description: 'Met hartslagmeter en gps, oplader erbij. Batterij houdt het nog vijf dagen vol.', listingType: 'item', categoryIds: ['smartwatches'], initialValue: 200, hoursAgo: d(2), color: '#5eead4', shape: 'watch' },
  { owner: 'lotte', title: 'Elektrische gitaar Fender Squier', description: 'Stratocaster-model in sunburst, met kleine oefenversterker en kabel.', listingType: 'item', categoryIds: ['gitaren', 'muziek'], initialValue: 250, isPremium: true, hoursAgo: 1, color: '#fb923c', shape: 'music' },
  { owner: 'lotte', title: 'Vintage Tulip-stoel', description: 'Witte kuipstoel op voet uit de jaren zeventig, nieuw kussen.', listingType: 'item', categoryIds: ['design', 'meubels'], initialValue: 300, isPremium: true, hoursAgo: d(11), color: '#e2e8f0', shape: 'sofa' },
  { owner: 'lotte', title: 'Fotoshoot in het park', description: 'Een uur portretten of een gezinsfoto in het park, met nabewerkte foto’s. Ruil ook tegen spullen.', listingType: 'service', acceptsItems: true, categoryIds: ['cameras', 'hobby'], hoursAgo: d(6), color: '#bef264', shape: 'camera' },
  { owner: 'lotte', title: 'Yogamat en twee blokken', description: 'Antislip yogamat van 6 mm met twee kurken blokken.', listingType: 'item', categoryIds: ['sport'], initialValue: 20, hoursAgo: d(14), color: '#c084fc', shape: 'box' },
  { owner: 'lotte', title: 'Babykleding 0 tot 6 maanden', description: 'Een doos rompertjes, pakjes en mutsjes, gewassen en netjes.', listingType: 'item', categoryIds: ['kinderen', 'kleding'], initialValue: 10, hoursAgo: d(4), color: '#fda4af', shape: 'shirt' },
  { owner: 'lotte', title: 'Franse conversatieles', description: 'Oefen je Frans in een ontspannen gesprek, een uur per week. Alleen te ruil tegen een dienst.', listingType: 'service', categoryIds: ['lessen'], hoursAgo: d(13), color: '#93c5fd', shape: 'lesson' },
  { owner: 'lotte', title: 'Jazzplaten, vijfentwintig stuks', description: 'Blue Note- en Verve-persingen uit de jaren zestig en zeventig, goede staat.', listingType: 'item', categoryIds: ['vinyl'], initialValue: 120, isPremium: true, hoursAgo: 30, color: '#818cf8', shape: 'music' },
  { owner: 'lotte', title: 'Hulp bij tuinonderhoud', description: 'Heg snoeien, gras maaien en bladeren ruimen. Gereedschap neem ik mee.', listingType: 'service', acceptsItems: true, categoryIds: ['tuin'], hoursAgo: 5, color: '#a3e635', shape: 'plant' },
];

/**
 * A demo listing's id: derived from its owner's id and its place in DEMO_LISTINGS, so seeding is
 * idempotent and checks can name a seeded listing of a signed-in demo member.
 */
export function demoListingId(ownerId: string, index: number): string {
  return createHash('sha256').update(`ruilplein demo listing ${ownerId} ${index}`).digest('hex').slice(0, 24);
}

/** The id of a demo listing by its title, for the member whose id is given. */
export function demoListingIdByTitle(ownerId: string, title: string): string {
  const index = DEMO_LISTINGS.findIndex((l) => l.title === title);
  if (index < 0) throw new Error(`no demo listing "${title}"`);
  return demoListingId(ownerId, index);
}
