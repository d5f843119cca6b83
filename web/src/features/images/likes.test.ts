import { likeAction, likeChangeToast } from './likes';

describe('likes', () => {
  it('offers exactly one of Like and Unlike, from likedByMe', () => {
    expect(likeAction({ likedByMe: false })).toBe('like');
    expect(likeAction({ likedByMe: true })).toBe('unlike');
  });

  it('announces what the server says happened, and nothing when nothing changed', () => {
    expect(likeChangeToast(false, true)).toEqual({ title: 'Liked!' });
    expect(likeChangeToast(true, false)).toEqual({ title: 'Like removed' });
    // Pressing Like on an image already liked (a stale screen) is not "Liked!" again.
    expect(likeChangeToast(true, true)).toBeNull();
    expect(likeChangeToast(false, false)).toBeNull();
  });
});
