import { describe, expect, it } from 'vitest';
import { addPhotos, addProblem, editProblem, listingFormData, valueField, type ListingDraft } from '../src/form/validation.ts';

const draft: ListingDraft = {
  listingType: 'item',
  acceptsItems: false,
  title: 'Fiets',
  description: 'Een goede fiets.',
  value: '',
  categoryIds: ['c1'],
  isPremium: false,
};
const photo = (name = 'a.png', size = 10, type = 'image/png') => new File([new Uint8Array(size)], name, { type });

describe('the add form checks in the order of spec 2 §5', () => {
  it('passes a complete form', () => {
    expect(addProblem(draft, 1, true)).toBeUndefined();
  });

  it('names the first problem only, with ❌ in front', () => {
    const empty = { ...draft, title: ' ', description: '', value: 'abc', categoryIds: [] };
    expect(addProblem(empty, 0, false)?.message).toBe('❌ Je bent niet ingelogd.');
    expect(addProblem(empty, 0, true)).toEqual({ field: 'title', message: '❌ Titel is verplicht.' });
    expect(addProblem({ ...empty, title: 'x' }, 0, true)).toEqual({ field: 'description', message: '❌ Beschrijving is verplicht.' });
    expect(addProblem({ ...empty, title: 'x', description: 'y' }, 0, true)).toEqual({ field: 'value', message: '❌ Geschatte waarde moet een geldig nummer zijn.' });
    expect(addProblem({ ...empty, title: 'x', description: 'y', value: '12,5' }, 0, true)).toEqual({ field: 'photos', message: '❌ Upload minstens 1 afbeelding.' });
    expect(addProblem({ ...empty, title: 'x', description: 'y', value: '' }, 1, true)).toEqual({ field: 'categories', message: '❌ Selecteer minstens 1 categorie.' });
  });

  it('takes a comma as decimal point and refuses a value out of range', () => {
    expect(addProblem({ ...draft, value: '12,50' }, 1, true)).toBeUndefined();
    expect(addProblem({ ...draft, value: '1000000,01' }, 1, true)?.message).toBe('❌ Geschatte waarde moet tussen 0 en 1.000.000 euro liggen.');
  });
});

describe('the edit form', () => {
  it('needs no photo and words the category rule as the edit screen does', () => {
    expect(editProblem(draft)).toBeUndefined();
    expect(editProblem({ ...draft, categoryIds: [] })).toEqual({ field: 'categories', message: 'Selecteer minimaal één categorie.' });
    expect(editProblem({ ...draft, title: '' })?.message).toBe('Titel is verplicht.');
  });
});

describe('chosen photos', () => {
  it('keeps images only', () => {
    const { photos, problem } = addPhotos([], [photo('a.png'), photo('b.txt', 10, 'text/plain')]);
    expect(photos.map((p) => p.name)).toEqual(['a.png']);
    expect(problem).toBe('❌ Alleen afbeeldingen zijn toegestaan.');
  });

  it('keeps the first five', () => {
    const { photos, problem } = addPhotos([photo('1'), photo('2')], [photo('3'), photo('4'), photo('5'), photo('6')]);
    expect(photos.map((p) => p.name)).toEqual(['1', '2', '3', '4', '5']);
    expect(problem).toBe('❌ Je kunt hoogstens 5 afbeeldingen uploaden.');
  });

  it('refuses a choice that brings the total over 20 MB', () => {
    const current = [photo('big', 15 * 1024 * 1024)];
    const { photos, problem } = addPhotos(current, [photo('more', 6 * 1024 * 1024)]);
    expect(photos).toEqual(current);
    expect(problem).toBe('❌ De totale bestandsgrootte mag niet meer dan 20MB zijn.');
  });
});

describe('the multipart body', () => {
  it('uses the create call’s field names, a dot decimal and repeated categories and images', () => {
    const form = listingFormData({ ...draft, value: '12,5', categoryIds: ['c1', 'c2'] }, [photo('a.png'), photo('b.png')], 'create');
    expect(form.get('title')).toBe('Fiets');
    expect(form.get('initialValue')).toBe('12.5');
    expect(form.get('listingType')).toBe('item');
    expect(form.get('acceptsItems')).toBe('false');
    expect(form.get('isPremium')).toBe('false');
    expect(form.getAll('CategoryIDs')).toEqual(['c1', 'c2']);
    expect(form.getAll('images')).toHaveLength(2);
  });

  it('uses the update call’s names; only a service accepts items', () => {
    const form = listingFormData({ ...draft, listingType: 'service', acceptsItems: true }, [], 'update');
    expect([...form.keys()]).toEqual(['Title', 'Description', 'initialValue', 'IsPremium', 'ListingType', 'AcceptsItems', 'CategoryIDs']);
    expect(form.get('AcceptsItems')).toBe('true');
    expect(listingFormData({ ...draft, acceptsItems: true }, [], 'update').get('AcceptsItems')).toBe('false');
    expect(form.get('initialValue')).toBe('');
  });

  it('sends an empty value as none', () => {
    expect(valueField('  ')).toBe('');
    expect(valueField('0')).toBe('0');
  });
});
