import { describe, expect, it } from 'vitest';
import { analyze, editDistance, fold, parseQuery, QUALITY, snowballDutch, stem, termQuality, textScore, undiminish, words } from '../src/text.ts';

describe('folding and words', () => {
  it('folds case and diacritics and splits on anything but letters and digits', () => {
    expect(fold('Café Crème ÉÉN')).toBe('cafe creme een');
    expect(words("Kinder-fiets, 28'' (zo goed als nieuw!) ruïne")).toEqual(['kinder', 'fiets', '28', 'zo', 'goed', 'als', 'nieuw', 'ruine']);
    expect(analyze('De fiets en het slot').words).toEqual(['fiets', 'slot']);
  });
});

describe('Snowball Dutch', () => {
  // Pairs from the Snowball project's Dutch vocabulary and its output.
  const reference: [string, string][] = [
    ['lichamelijk', 'licham'],
    ['lichamelijke', 'licham'],
    ['lichamen', 'licham'],
    ['lichte', 'licht'],
    ['lichten', 'licht'],
    ['lichter', 'lichter'],
    ['lichtere', 'lichter'],
    ['lichters', 'lichter'],
    ['lichtgevoeligheid', 'lichtgevoel'],
    ['lichtkranten', 'lichtkrant'],
    ['lichtkringen', 'lichtkring'],
    ['lichtste', 'lichtst'],
    ['lichtte', 'licht'],
    ['lichtten', 'licht'],
    ['lichtzinnige', 'lichtzinn'],
    ['lichtjes', 'lichtjes'],
    ['bloemen', 'bloem'],
    ['tuinen', 'tuin'],
    ['gemakkelijk', 'gemak'],
    ['planten', 'plant'],
    ['maaien', 'maai'],
    ['grassen', 'grass'],
  ];
  it.each(reference)('%s → %s', (word, expected) => expect(snowballDutch(word)).toBe(expected));
});

describe('diminutives', () => {
  it.each([
    ['fietsje', 'fiets'],
    ['fietsjes', 'fiets'],
    ['boompje', 'boom'],
    ['balletje', 'bal'],
    ['autootje', 'auto'],
    ['stoeltje', 'stoel'],
    ['kastje', 'kast'],
    ['huisje', 'huis'],
    ['boekske', 'boek'],
    ['fiets', 'fiets'],
    ['mogelijke', 'mogelijke'],
  ])('%s → %s', (word, expected) => expect(undiminish(word)).toBe(expected));
});

describe('terms', () => {
  it('gives plurals, diminutives and singulars one term', () => {
    for (const group of [
      ['fiets', 'fietsen', 'fietsje', 'fietsjes'],
      ['boek', 'boeken', 'boekje'],
      ['huis', 'huizen', 'huisje'],
      ['brief', 'brieven'],
      ['tas', 'tassen', 'tasje'],
      ['stoel', 'stoelen', 'stoeltje'],
      ['boot', 'boten', 'bootje'],
      ['kast', 'kasten', 'kastje'],
      ['kaart', 'kaarten', 'kaartje'],
      ['lamp', 'lampen', 'lampje'],
      ['auto', "auto's", 'autootje'],
    ]) {
      // Every word of the group has a term in common (a diminutive is indexed in both readings).
      const shared = group.map((w) => new Set(analyze(w).terms)).reduce((a, b) => new Set([...a].filter((t) => b.has(t))));
      expect(shared.size, group.join(', ')).toBeGreaterThan(0);
    }
    expect(stem('fietsen')).toBe(stem('fiets'));
  });
});

describe('matching a query word', () => {
  const quality = (q: string, word: string, prefix = false) => termQuality(parseQuery(prefix ? q : `${q} `, prefix)[0]!, stem(word));

  it('finds the same term, a compound by its last part, and a prefix only for the word being typed', () => {
    expect(quality('fietsen', 'fiets')).toBe(QUALITY.exact);
    expect(quality('fiets', 'kinderfiets')).toBe(QUALITY.compound);
    expect(quality('tas', 'schooltas')).toBe(QUALITY.compound);
    expect(quality('fie', 'fiets', true)).toBe(QUALITY.prefix);
    expect(quality('fie', 'fiets')).toBe(0);
    expect(quality('fiets', 'fietspomp')).toBe(0);
  });

  it('allows one typo from five letters and two from nine, none below', () => {
    expect(quality('fietsne', 'fietsen')).toBe(QUALITY.typo);
    expect(quality('fietsne', 'kinderfiets')).toBe(QUALITY.typo);
    expect(quality('fiest', 'fiets')).toBe(QUALITY.typo);
    expect(quality('boek', 'boel')).toBe(0);
    expect(quality('naaimachien', 'naaimachine')).toBe(QUALITY.typo);
    expect(quality('naaimchien', 'naaimachine')).toBe(QUALITY.typo);
    expect(quality('gitaar', 'gitaren')).toBe(QUALITY.exact);
    expect(quality('stoel', 'staal')).toBe(0);
  });

  it('computes the restricted edit distance with transpositions, stopping past the bound', () => {
    expect(editDistance('fietsne', 'fietsen', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('abc', 'abcdef', 2)).toBe(3);
  });

  it('scores a listing: every word must match somewhere, the title counts most', () => {
    const fields = (title: string, excerpt: string) => [
      { field: 2, terms: analyze(title).terms },
      { field: 0, terms: analyze(excerpt).terms },
    ];
    const q = parseQuery('rode fiets');
    expect(textScore(q, fields('Rode fiets', 'Mooi'))).toBeGreaterThan(textScore(q, fields('Fiets', 'Een rode')));
    expect(textScore(q, fields('Fiets', 'Blauw'))).toBe(0);
    expect(parseQuery('de fiets van')).toHaveLength(1);
    expect(parseQuery('de')).toHaveLength(1);
  });
});
