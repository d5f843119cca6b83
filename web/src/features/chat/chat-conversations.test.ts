import {
  conversationHeading,
  filterConversations,
  formatConversationDate,
  formatMessageTime,
  sortConversations,
} from './chat-conversations';

const list = [
  { id: 'a', title: 'Tavern night', updatedAt: '2025-09-01T10:00:00.000Z' },
  { id: 'b', title: 'Space trip', updatedAt: '2025-09-03T10:00:00.000Z' },
  { id: 'c', title: 'New Conversation', updatedAt: '2025-09-02T10:00:00.000Z' },
];

describe('conversation list', () => {
  it('puts the most recently active first', () => {
    expect(sortConversations(list).map((c) => c.id)).toEqual(['b', 'c', 'a']);
  });

  it('filters by title, case-insensitively', () => {
    expect(filterConversations(list, '  TAVERN ').map((c) => c.id)).toEqual(['a']);
    expect(filterConversations(list, 'o').map((c) => c.id)).toEqual(['c']);
    expect(filterConversations(list, '')).toHaveLength(3);
    expect(filterConversations(list, 'zzz')).toEqual([]);
  });

  it("reads 'AI Assistant' when there is no title", () => {
    expect(conversationHeading('')).toBe('AI Assistant');
    expect(conversationHeading(null)).toBe('AI Assistant');
    expect(conversationHeading('Space trip')).toBe('Space trip');
  });

  it('shows the time for today and the date otherwise', () => {
    const now = new Date(2025, 8, 3, 18, 0);
    expect(formatConversationDate(new Date(2025, 8, 3, 9, 5).toISOString(), now, 'en-US')).toMatch(/^9:05\sAM$/);
    expect(formatConversationDate(new Date(2025, 8, 1, 9, 5).toISOString(), now, 'en-US')).toBe('Sep 1');
    expect(formatConversationDate(new Date(2024, 11, 31, 9, 5).toISOString(), now, 'en-US')).toBe('Dec 31, 2024');
    expect(formatConversationDate('not a date', now)).toBe('');
    expect(formatMessageTime(new Date(2025, 8, 1, 9, 5).toISOString(), 'en-US')).toMatch(/Sep 1, 2025/);
  });
});
