// Which filters the MongoDB adapter answers by _id lookups on a server that pushes nothing else down
// (FerretDB on SQLite), and that the rest of the filter, the sort and the page still apply. The same
// reads against FerretDB itself run in the documents contract suite.
import { narrow, pinnedIds } from '../src/adapters/documents-mongo/id-lookups';
import type { Doc } from '../src/ports/documents';

describe('reads by _id where only {_id} reaches the engine', () => {
  it('takes the _ids a filter pins: a value, $eq, or a short $in without repeats', () => {
    expect(pinnedIds({ _id: 'a', status: 'queued' })).toEqual(['a']);
    expect(pinnedIds({ _id: { $eq: 'b' } })).toEqual(['b']);
    expect(pinnedIds({ _id: { $in: ['a', 'b', 'a'] } })).toEqual(['a', 'b']);
  });

  it('leaves other filters to the engine: no _id, a range, a long list, or more than one operator', () => {
    expect(pinnedIds({ status: 'queued' })).toBeUndefined();
    expect(pinnedIds({ _id: { $gt: 'a' } })).toBeUndefined();
    expect(pinnedIds({ _id: { $in: Array.from({ length: 33 }, (_, i) => `id${i}`) } })).toBeUndefined();
    expect(pinnedIds({ _id: { $in: ['a'], $ne: 'b' } })).toBeUndefined();
    expect(pinnedIds({ _id: { $ne: 'a' } })).toBeUndefined();
  });

  it('keeps only documents that match the whole filter, sorted, skipped and limited', () => {
    const docs: Array<Doc | null> = [
      { _id: 'a', status: 'sent', at: 3 },
      null,
      { _id: 'b', status: 'queued', at: 2 },
      { _id: 'c', status: 'queued', at: 1 },
      { _id: 'd', status: 'queued', at: 4 },
    ];
    const filter = { _id: { $in: ['a', 'b', 'c', 'd', 'e'] }, status: 'queued' };
    expect(narrow(docs, filter).map((d) => d._id)).toEqual(['b', 'c', 'd']);
    expect(narrow(docs, filter, { sort: { at: 1 } }).map((d) => d._id)).toEqual(['c', 'b', 'd']);
    expect(narrow(docs, filter, { sort: { at: -1 }, skip: 1, limit: 1 }).map((d) => d._id)).toEqual(['b']);
  });
});
