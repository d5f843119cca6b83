import { imageListState } from './list-state';

describe('image list state', () => {
  it('is empty only when the server lists no image', () => {
    expect(imageListState({ loading: false, error: false, total: 0, shown: 0 })).toBe('empty');
    expect(imageListState({ loading: false, error: true, total: 0, shown: 0 })).toBe('error');
    expect(imageListState({ loading: true, error: false, total: 0, shown: 0 })).toBe('loading');
  });

  it('never calls a list with images empty because their pictures failed to load', () => {
    expect(imageListState({ loading: false, error: false, total: 2, shown: 0 })).toBe('unavailable');
    expect(imageListState({ loading: false, error: false, total: 2, shown: 1 })).toBe('images');
    // More pages may still bring pictures that load: keep paging.
    expect(imageListState({ loading: false, error: false, total: 24, shown: 0, hasNextPage: true })).toBe('images');
  });

  it('keeps showing images while a refresh is in flight', () => {
    expect(imageListState({ loading: true, error: false, total: 3, shown: 3 })).toBe('images');
  });
});
