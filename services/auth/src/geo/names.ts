/**
 * GeoNames gives some places their English name and Belgian places only their local one. Members
 * type the Dutch (or French) name: these are shown or found as well. Keyed by country and the
 * bundled name; a unit test checks that every key still exists in the data.
 */
export const DUTCH_NAMES: Record<string, { name?: string; aliases: string[] }> = {
  'NL:The Hague': { name: 'Den Haag', aliases: ["'s-Gravenhage", 'The Hague'] },
  "NL:'s-Hertogenbosch": { aliases: ['Den Bosch'] },
  'BE:Brussels': { name: 'Brussel', aliases: ['Bruxelles', 'Brussels'] },
  'BE:Ostend': { name: 'Oostende', aliases: ['Ostende', 'Ostend'] },
  'BE:Antwerpen': { aliases: ['Anvers', 'Antwerp'] },
  'BE:Gent': { aliases: ['Gand', 'Ghent'] },
  'BE:Brugge': { aliases: ['Bruges'] },
  'BE:Leuven': { aliases: ['Louvain'] },
  'BE:Mechelen': { aliases: ['Malines'] },
  'BE:Kortrijk': { aliases: ['Courtrai'] },
  'BE:Ieper': { aliases: ['Ypres'] },
  'BE:Tongeren': { aliases: ['Tongres'] },
  'BE:Oudenaarde': { aliases: ['Audenarde'] },
  'BE:Ronse': { aliases: ['Renaix'] },
  'BE:Liège': { aliases: ['Luik'] },
  'BE:Namur': { aliases: ['Namen'] },
  'BE:Mons': { aliases: ['Bergen'] },
  'BE:Tournai': { aliases: ['Doornik'] },
  'BE:Arlon': { aliases: ['Aarlen'] },
  'BE:Wavre': { aliases: ['Waver'] },
  'BE:Nivelles': { aliases: ['Nijvel'] },
  "BE:Braine-l'Alleud": { aliases: ['Eigenbrakel'] },
  'BE:Jodoigne': { aliases: ['Geldenaken'] },
  'BE:Waremme': { aliases: ['Borgworm'] },
  'BE:Huy': { aliases: ['Hoei'] },
  'BE:Soignies': { aliases: ['Zinnik'] },
  'BE:Ath': { aliases: ['Aat'] },
  'BE:Mouscron': { aliases: ['Moeskroen'] },
  'BE:Enghien': { aliases: ['Edingen'] },
  'BE:Lessines': { aliases: ['Lessen'] },
  'BE:Tubize': { aliases: ['Tubeke'] },
  'BE:Visé': { aliases: ['Wezet'] },
};

/** Leading articles that members leave out ('s-Hertogenbosch → hertogenbosch, Den Haag → haag). */
const ARTICLES = new Set(['s', 't', 'de', 'den', 'der', 'het', 'la', 'le', 'les', 'l', 'the']);

/**
 * Compares names regardless of case, accents, apostrophes and hyphens: "'s-Gravenhage",
 * "s gravenhage" and "'S-GRAVENHAGE" all become "s gravenhage".
 */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’‘`´]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The normalized forms a name is found by: itself and, if it starts with an article, without it. */
export function searchKeys(name: string): string[] {
  const normalized = normalizeName(name);
  const words = normalized.split(' ');
  return words.length > 1 && ARTICLES.has(words[0]!) ? [normalized, words.slice(1).join(' ')] : [normalized];
}
