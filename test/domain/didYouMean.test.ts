import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/domain/didYouMean.js';

const COMPONENT_FIELDS = ['palletCount', 'poundsWeight', 'dimensions', 'palletDimensions', 'description', 'nmfcCode', 'packagingType', 'pieceCount'];

describe('didYouMean', () => {
  it.each([
    ['descripton', 'description'], // a letter missing
    ['desciption', 'description'],
    ['poundWeight', 'poundsWeight'],
    ['pallet_count', 'palletCount'], // case, _ and - do not count
    ['PIECECOUNT', 'pieceCount'],
    ['weight', 'poundsWeight'], // a part of the name
    ['pallets', 'palletCount'], // a word people use for it
    ['dims', 'dimensions'],
    ['nmfc', 'nmfcCode'],
    ['weigth', 'poundsWeight'], // letters swapped, inside a longer name
    ['peiceCount', 'pieceCount'],
  ])('%s -> %s', (typed, meant) => {
    expect(didYouMean(typed, COMPONENT_FIELDS)).toBe(meant);
  });

  it('suggests a field only where it exists, and nothing for names far from every field', () => {
    expect(didYouMean('zipcode', ['zipCode', 'countryCode'])).toBe('zipCode');
    expect(didYouMean('zipcode', COMPONENT_FIELDS)).toBeUndefined();
    expect(didYouMean('contry', ['zipCode', 'countryCode'])).toBe('countryCode');
    for (const far of ['hazmat', 'futureField', 'x', '', '---']) expect(didYouMean(far, COMPONENT_FIELDS), far).toBeUndefined();
  });

  it('measures edit distance', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('hieght', 'height')).toBe(1); // one transposition
  });
});
