// The fixed Dutch query set of issue 23: realistic listings (the demo's thirty and a set of our own),
// queries with the listings a member expects among the first 20 (plurals, diminutives, typos,
// diacritics, compounds, category names), and at least 95% of those expected found.
import { DEMO_LISTINGS } from '@ruilplein/contracts/demo';
import { describe, expect, it } from 'vitest';
import { InterestBook } from '../src/interest.ts';
import { ListingIndex, type ListingState } from '../src/listings.ts';
import { matches } from '../src/matches.ts';
import { MemberTable } from '../src/members.ts';
import { SearchEngine } from '../src/query.ts';
import { random } from './random.ts';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const HOUR = 3600_000;

/** The seed's category names (services/listing/src/categories/seed.ts). */
const CATEGORY_NAMES = new Map(
  Object.entries({
    elektronica: 'Elektronica', kleding: 'Kleding & accessoires', boeken: 'Boeken & tijdschriften', meubels: 'Meubels', huishouden: 'Huis & keuken',
    tuin: 'Tuin & planten', sport: 'Sport & buiten', speelgoed: 'Speelgoed & spellen', kinderen: 'Baby & kinderen', gereedschap: 'Gereedschap & doe-het-zelf',
    fietsen: 'Fietsen & onderdelen', muziek: 'Muziek & instrumenten', hobby: 'Hobby & creatief', dieren: 'Dierenbenodigdheden', klussen: 'Klussen & reparaties',
    lessen: 'Lessen & bijles', oppas: 'Oppas & zorg', vervoer: 'Vervoer & verhuizen', overig: 'Overig', vinyl: 'Vinyl & platenspelers',
    smartwatches: 'Smartwatches', gitaren: 'Gitaren & versterkers', cameras: "Camera's & lenzen", design: 'Design & vintage',
  }).map(([id, name]) => [id, { name }]),
);

const OWN: [string, string, string, string[]][] = [
  ['f1', 'Kinderfiets 16 inch', 'Blauwe kinderfiets met zijwieltjes, voor kinderen van 4 tot 6 jaar.', ['fietsen', 'kinderen']],
  ['f2', 'Racefiets Gazelle', 'Lichte racefiets, 56 cm frame, Shimano 105 versnellingen.', ['fietsen', 'sport']],
  ['f3', 'Oude stadsfiets', 'Degelijke oude fiets met terugtraprem, ideaal voor de stad.', ['fietsen']],
  ['f4', 'Bakfiets met huif', 'Houten bakfiets voor twee kinderen, met regenhuif.', ['fietsen', 'kinderen']],
  ['f5', 'Fietsjes voor peuters', 'Twee loopfietsjes, hout en metaal.', ['kinderen', 'speelgoed']],
  ['f6', 'Fietsenrek voor drie fietsen', 'Gegalvaniseerd rek voor de schuur of tuin.', ['fietsen', 'tuin']],
  ['b1', 'Stapel boeken over koken', 'Kookboeken van Ottolenghi en Jamie Oliver, als nieuw.', ['boeken', 'huishouden']],
  ['b2', 'Boekje met gedichten', 'Klein boekje met gedichten van Toon Tellegen.', ['boeken']],
  ['b3', 'Boekenkast van eikenhout', 'Hoge boekenkast, vijf planken, eiken.', ['meubels']],
  ['c1', 'Espressoapparaat voor het café-gevoel thuis', 'Espressomachine met melkopschuimer, cappuccino als in een café.', ['huishouden']],
  ['c2', 'Crème brûlée branders', 'Twee keukenbranders voor crème brûlée.', ['huishouden']],
  ['m1', 'Naaimachine Bernina', 'Naaimachine met veel steken, inclusief voetpedaal en spoeltjes.', ['hobby']],
  ['m2', 'Gitaar voor linkshandigen', 'Akoestische gitaar, linkshandig, met hoes.', ['muziek']],
  ['m3', 'Piano keyboard Yamaha', 'Keyboard met 61 toetsen en standaard.', ['muziek']],
  ['h1', 'Huisje voor konijnen', 'Konijnenhok met ren: een houten huisje voor twee konijnen.', ['dieren']],
  ['h2', 'Poppenhuis met meubeltjes', 'Houten poppenhuis met drie verdiepingen en meubeltjes.', ['speelgoed']],
  ['k1', 'Kinderstoel Stokke Tripp Trapp', 'Meegroeistoel in naturel, met babyset.', ['kinderen', 'meubels']],
  ['k2', 'Bureaustoel ergonomisch', 'Verstelbare bureaustoel met armleuningen.', ['meubels']],
  ['k3', 'Stoeltjes voor de tuin', 'Vier klapstoeltjes van teakhout.', ['tuin']],
  ['t1', 'Schooltas van leer', 'Leren schooltas, bruin, met twee vakken.', ['kleding']],
  ['t2', 'Laptoptas 15 inch', 'Zwarte laptoptas met schouderband.', ['elektronica']],
  ['t3', 'Tassen van jute', 'Vijf boodschappentassen van jute.', ['huishouden']],
  ['g1', 'Grasmaaier elektrisch', 'Elektrische grasmaaier, 1600 W, met opvangbak.', ['tuin', 'gereedschap']],
  ['g2', 'Heggenschaar op accu', 'Accu heggenschaar, snoeit heggen snel en netjes.', ['tuin', 'gereedschap']],
  ['g3', 'Boormachine Makita', "Accuboormachine met twee accu's en lader.", ['gereedschap']],
  ['l1', 'Bijles Engels', 'Bijles Engels voor middelbare scholieren, examentraining.', ['lessen']],
  ['l2', 'Pianoles aan huis', 'Pianolessen voor beginners en gevorderden.', ['lessen', 'muziek']],
  ['s1', 'Schaatsen maat 42', 'Noren, maat 42, net geslepen.', ['sport']],
  ['s2', 'Skischoenen dames', 'Skischoenen maat 39, één seizoen gebruikt.', ['sport', 'kleding']],
  ['s3', 'Tent voor twee personen', 'Lichtgewicht trekkingtent met haringen.', ['sport']],
  ['e1', 'Koelkast tafelmodel', 'Kleine koelkast, energielabel A, werkt prima.', ['huishouden', 'elektronica']],
  ['e2', 'Wasmachine Miele', 'Wasmachine 7 kg, 1400 toeren.', ['huishouden']],
  ['e3', 'Televisie Philips 55 inch', 'Smart tv met Ambilight.', ['elektronica']],
  ['p1', 'Kamerplanten stekjes', 'Stekjes van monstera en pilea.', ['tuin']],
  ['p2', 'Bloembollen tulpen', 'Honderd tulpenbollen in gemengde kleuren.', ['tuin']],
  ['x1', 'Verhuisdozen', 'Twintig stevige verhuisdozen.', ['vervoer']],
  ['x2', 'Aanhanger te leen', 'Aanhangwagen voor klusjes en verhuizingen.', ['vervoer']],
  ['x3', 'Legoset kasteel', 'Lego kasteel compleet met poppetjes.', ['speelgoed']],
  ['x4', 'Puzzels 1000 stukjes', 'Drie legpuzzels van 1000 stukjes, compleet.', ['speelgoed']],
  ['x5', 'Kerstboom kunst', 'Kunstkerstboom 180 cm met verlichting.', ['overig']],
  ['x6', 'Zonnebril Ray-Ban', 'Zonnebril, nauwelijks gedragen.', ['kleding']],
  ['x7', 'Winterjassen voor kinderen', 'Twee warme winterjassen, maat 116 en 128.', ['kinderen', 'kleding']],
  ['x8', 'Hondenmand groot', 'Hondenmand voor een grote hond, wasbaar.', ['dieren']],
  ['x9', 'Kattenbak met deksel', 'Kattenbak met koolstoffilter.', ['dieren']],
];

/** A demo listing's id here: by its title. */
const demo = (title: string) => {
  const i = DEMO_LISTINGS.findIndex((l) => l.title === title);
  if (i < 0) throw new Error(`no demo listing "${title}"`);
  return `demo-${i}`;
};

const QUERIES: [string, string[]][] = [
  ['fiets', ['f1', 'f2', 'f3', 'f4', 'f5', demo('Stadsfiets met drie versnellingen'), demo('Je fiets laten repareren'), demo('Verhuishulp met bakfiets')]],
  ['fietsen', ['f1', 'f2', 'f3', 'f4', 'f6']],
  ['fietsje', ['f3', 'f5']],
  ['fietsne', ['f1', 'f2', 'f3']],
  ['Fietsen', ['f6', demo('Je fiets laten repareren')]],
  ['kinderfiets', ['f1']],
  ['racefiets', ['f2']],
  ['gazelle', ['f2']],
  ['bakfietsen', ['f4', demo('Verhuishulp met bakfiets')]],
  ['boeken', ['b1', 'b2', demo('Stapel kinderboeken (8 stuks)')]],
  ['boek', ['b1', 'b2']],
  ['boekje', ['b2']],
  ['boekenkast', ['b3']],
  ['kast', ['b3', 'e1']],
  ['cafe', ['c1']],
  ['creme brulee', ['c2']],
  ['naaimachine', ['m1', demo('Naaimachine Singer')]],
  ['naaimachien', ['m1', demo('Naaimachine Singer')]],
  ['gitaar', ['m2', demo('Gitaarles voor beginners'), demo('Elektrische gitaar Fender Squier')]],
  ['gitaren', ['m2']],
  ['huis', ['h1', 'h2']],
  ['huisjes', ['h1']],
  ['stoel', ['k1', 'k2', 'k3', demo('Vintage Tulip-stoel')]],
  ['stoelen', ['k1', 'k2', 'k3']],
  ['tas', ['t1', 't2', 't3']],
  ['tassen', ['t1', 't2', 't3']],
  ['grasmaaier', ['g1']],
  ['grasmaier', ['g1']],
  ['heggenschaar', ['g2']],
  ['boormachine', ['g3', demo('Boormachine met klopfunctie')]],
  ['bijles', ['l1', demo('Bijles wiskunde onderbouw')]],
  ['pianoles', ['l2']],
  ['piano', ['m3', 'l2']],
  ['schaats', ['s1']],
  ['skischoen', ['s2']],
  ['tentje', ['s3', demo('Tent voor vier personen')]],
  ['koelkasten', ['e1']],
  ['wasmachines', ['e2']],
  ['televisie', ['e3']],
  ['televsie', ['e3']],
  ['plantjes', ['p1']],
  ['verhuizen', ['x1', 'x2', demo('Verhuishulp met bakfiets')]],
  ['lego', ['x3']],
  ['puzzel', ['x4']],
  ['kerstbomen', ['x5']],
  ['zonnebrillen', ['x6']],
  ['winterjas', ['x7', demo('Winterjas maat M')]],
  ['hondenmandje', ['x8']],
  ['katten', [demo('Krabpaal voor katten')]],
  ['tulpen', ['p2']],
  ['monstera', ['p1', demo('Stekjes van kamerplanten')]],
  ['koffiezetapparaat', [demo('Senseo koffiezetapparaat')]],
  ['platenspeler', [demo('Platenspeler Technics SL-1200')]],
  ['camera', [demo('Analoge camera Canon AE-1'), demo('Fotoshoot in het park')]],
  ['racefiets gazelle', ['f2']],
  ['oude fiets', ['f3']],
  ['elektrische grasmaaier', ['g1']],
  ['Crème', ['c2']],
  ['moestuin', [demo('Hulp bij je moestuin')]],
  ['eettafel', [demo('Eikenhouten eettafel voor zes')]],
];

function engineWithListings() {
  const members = new MemberTable(8);
  members.apply({ id: 'owner', version: 1, firstName: 'Jan', lastName: 'Jansen', city: 'Utrecht', roles: ['Gebruiker'], latitude: 52.09, longitude: 5.12 });
  const index = new ListingIndex(members, 8);
  const states: ListingState[] = [];
  const add = (id: string, title: string, description: string, categoryIds: string[], i: number) =>
    states.push({
      id,
      version: 1,
      ownerId: 'owner',
      active: true,
      title,
      excerpt: description.slice(0, 200),
      listingType: 'item',
      acceptsItems: false,
      isPremium: false,
      initialValue: null,
      categoryIds,
      imageUrl: '',
      thumbnailUrl: '',
      placeholder: '',
      createdAt: NOW - (i + 10) * HOUR,
      latitude: 52.09 + (i % 7) * 0.01,
      longitude: 5.12,
    });
  DEMO_LISTINGS.forEach((l, i) => add(`demo-${i}`, l.title, l.description, l.categoryIds, i));
  OWN.forEach(([id, title, description, categories], i) => add(id, title, description, categories, i + 40));
  for (const state of states) index.apply(state, NOW);
  return { engine: new SearchEngine(index, members, new InterestBook()), states };
}

describe('the Dutch query set', () => {
  const { engine, states } = engineWithListings();
  // A Premium member without a place: every listing may be found, distance plays no part.
  const searcher = { id: 'premium-viewer', premium: true };
  const top20 = (q: string) => {
    const page = engine.search(searcher, { page: 1, take: 20, premium: false, categoryIds: [], q }, NOW, CATEGORY_NAMES);
    return [...page.slots].map((slot) => engine.index.id(slot));
  };

  it('holds at least 40 queries', () => expect(QUERIES.length).toBeGreaterThanOrEqual(40));

  it('finds at least 95% of the expected listings in the top 20', () => {
    let expected = 0;
    let found = 0;
    const missed: string[] = [];
    for (const [q, ids] of QUERIES) {
      const got = new Set(top20(q));
      for (const id of ids) {
        expected++;
        if (got.has(id)) found++;
        else missed.push(`${q} → ${id}`);
      }
    }
    const recall = found / expected;
    expect(recall, `missed: ${missed.join('; ')}`).toBeGreaterThanOrEqual(0.95);
  });

  it('agrees with `matches` on every listing for every query', () => {
    const viewer = { id: 'premium-viewer', roles: ['Premium' as const] };
    for (const [q] of QUERIES) {
      const got = new Set(top20(q));
      const all = new Set([...engine.search(searcher, { page: 1, take: 50, premium: false, categoryIds: [], q }, NOW, CATEGORY_NAMES).slots].map((s) => engine.index.id(s)));
      for (const state of states) {
        const matched = matches({ premium: false, categoryIds: [], q }, state, viewer, NOW, CATEGORY_NAMES);
        if (all.size < 50) expect(matched, `${q} / ${state.title}`).toBe(all.has(state.id));
        else if (got.has(state.id)) expect(matched, `${q} / ${state.title}`).toBe(true);
      }
    }
  });

  it('leaves out what does not match, and ranks a title match above a description match', () => {
    expect(top20('fiets')).not.toContain('b1');
    expect(top20('stoel')).not.toContain('s3');
    // 'gitaar' is in m2's title and in demo Gitaarles's title… and only in the category name of others.
    expect(top20('hondenmand')[0]).toBe('x8');
    expect(top20('zzzzqqq')).toEqual([]);
  });

  it('completes the last word with words from the listings, most frequent first', () => {
    expect(engine.suggest('fie')).toContain('fiets');
    expect(engine.suggest('oude fie')).toContain('oude fiets');
    expect(engine.suggest('naai')).toEqual(['naaimachine']);
    expect(engine.suggest('fie ')).toEqual([]);
    expect(engine.suggest('e').length).toBeLessThanOrEqual(8);
  });
});

describe('keywords with a place to search from', () => {
  it('gives the same pages from the index’s postings as from the rows within reach, for common and rare words', () => {
    const next = random(23);
    const members = new MemberTable(4);
    const index = new ListingIndex(members, 4);
    const byIndex = new SearchEngine(index, members, new InterestBook(), 'index');
    const byRows = new SearchEngine(index, members, new InterestBook(), 'rows');
    const auto = new SearchEngine(index, members, new InterestBook());
    const texts = [...DEMO_LISTINGS.map((l) => [l.title, l.description, l.categoryIds] as const), ...OWN.map(([, t, d, c]) => [t, d, c] as const)];
    const common = 'goed onderhouden weinig gebruikt zo goed als nieuw ophalen in de buurt'.split(' ');
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    for (let m = 0; m < 30; m++) {
      members.apply({ id: `m${m}`, version: 1, firstName: 'Jan', lastName: 'Jansen', city: 'Utrecht', roles: m % 4 ? ['Gebruiker'] : ['Premium'], latitude: 51.9 + next() * 0.4, longitude: 4.9 + next() * 0.5 });
    }
    for (let i = 0; i < 3000; i++) {
      const [title, description, categoryIds] = pick(texts);
      index.apply(
        {
          id: `r${i}`,
          version: 1,
          ownerId: `m${Math.floor(next() * 30)}`,
          active: true,
          title: `${title} ${pick(common)}`,
          excerpt: `${description} ${Array.from({ length: Math.floor(next() * 6) }, () => pick(common)).join(' ')}`.slice(0, 200),
          listingType: next() < 0.25 ? 'service' : 'item',
          acceptsItems: false,
          isPremium: next() < 0.1,
          initialValue: next() < 0.2 ? null : Math.round(next() * 50_000) / 100,
          categoryIds: [...categoryIds],
          imageUrl: '',
          thumbnailUrl: '',
          placeholder: '',
          createdAt: NOW - Math.floor(next() * 24 * 30) * HOUR,
          latitude: 51.9 + next() * 0.4,
          longitude: 4.9 + next() * 0.5,
        },
        NOW,
      );
    }
    const queries = [...QUERIES.map(([q]) => q), 'goed', 'weinig gebruikt', 'goed onderhouden fiets', 'ophalen boek', 'nieuw', 'zo goed als nieuw', 'fietsen goed', 'ophal'];
    let answered = 0;
    for (const q of queries) {
      for (let k = 0; k < 3; k++) {
        const who = members.searcher(`m${Math.floor(next() * 30)}`, NOW);
        const f = {
          page: 1 + Math.floor(next() * 2),
          take: 20,
          premium: false,
          q,
          distanceKm: 2 + next() * 30,
          minValue: next() < 0.7 ? undefined : Math.floor(next() * 100),
          listingType: next() < 0.7 ? undefined : ('item' as const),
          categoryIds: next() < 0.7 ? [] : [pick(['fietsen', 'kinderen', 'tuin', 'huishouden', 'muziek'])],
        };
        const expected = [...byIndex.search(who, f, NOW, CATEGORY_NAMES).slots];
        expect([...byRows.search(who, f, NOW, CATEGORY_NAMES).slots], `${q} ${JSON.stringify(f)}`).toEqual(expected);
        expect([...auto.search(who, f, NOW, CATEGORY_NAMES).slots], `${q} ${JSON.stringify(f)}`).toEqual(expected);
        if (expected.length) answered++;
      }
    }
    expect(answered).toBeGreaterThan(queries.length);
  });
});
