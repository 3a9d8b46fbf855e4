// How the free-text credits are read (the conventions in src/domain/gaps/RULES.md).

import { parsePLine } from '../src/domain/credits/p-line';
import { featuredInTitle, nameKey, parsePerson } from '../src/domain/credits/people';

it('reads roles, featured performers and writer shares', () => {
  expect(parsePerson('Ana Diaz (guitar)')).toEqual({
    name: 'Ana Diaz',
    role: 'guitar',
    featured: false,
    share: undefined,
  });
  expect(parsePerson('Cy Park — lead vocals')).toMatchObject({ name: 'Cy Park', role: 'lead vocals' });
  expect(parsePerson('Jean-Luc Ponty - violin')).toMatchObject({ name: 'Jean-Luc Ponty', role: 'violin' });
  expect(parsePerson('feat. Bo Lee (vocals)')).toMatchObject({
    name: 'Bo Lee',
    role: 'vocals',
    featured: true,
  });
  expect(parsePerson('Ana Diaz (33.5%)')).toMatchObject({ name: 'Ana Diaz', role: '', share: 33.5 });
  expect(parsePerson('Ana Diaz')).toMatchObject({ name: 'Ana Diaz', role: '' });
});

it('finds featured artists in a title, and compares names loosely', () => {
  expect(featuredInTitle('Night Drive (feat. Bo Lee & Cy Park)')).toEqual(['Bo Lee', 'Cy Park']);
  expect(featuredInTitle('Go ft. Malcolm X')).toEqual(['Malcolm X']);
  expect(featuredInTitle('Aftermath')).toEqual([]);
  expect(nameKey('  Beyoncé  Knowles-Carter ')).toBe(nameKey('beyonce knowles carter'));
});

it('reads the ℗ line in its usual spellings', () => {
  expect(parsePLine('℗ 2024 Northern Lights')).toEqual({ year: 2024, owner: 'Northern Lights' });
  expect(parsePLine('(P) 2023 Northern Lights')).toEqual({ year: 2023, owner: 'Northern Lights' });
  expect(parsePLine('P 2022, Northern Lights')).toEqual({ year: 2022, owner: 'Northern Lights' });
  expect(parsePLine('℗ Northern Lights')).toEqual({ owner: 'Northern Lights' });
  expect(parsePLine('℗ 2024')).toEqual({ year: 2024, owner: '' });
  expect(parsePLine('  ')).toBeUndefined();
});
