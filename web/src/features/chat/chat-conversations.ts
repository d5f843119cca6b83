/** Conversation list rules of the chat sidebar. */
import { i18n } from '../../i18n/i18n';

export interface ConversationLike {
  id: string;
  title: string;
  updatedAt: string;
}

/** Spec §3: a new conversation's title, in the interface language. */
export function defaultConversationTitle(): string {
  return i18n.t('chat.defaultTitle');
}

/** Spec §2: the header reads 'AI Assistant' (in the interface language) when a conversation has no title. */
export function conversationHeading(title: string | null | undefined): string {
  return title?.trim() || i18n.t('chat.assistantName');
}

/** The letter in an avatar without a picture: the name's first, or A (for the assistant). */
export function personaInitial(name: string): string {
  return Array.from(name.trim())[0]?.toUpperCase() ?? 'A';
}

/** Most recently active first. */
export function sortConversations<T extends ConversationLike>(conversations: readonly T[]): T[] {
  return [...conversations].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
}

/** Titles containing the search text, ignoring case and surrounding spaces. */
export function filterConversations<T extends ConversationLike>(conversations: readonly T[], search: string): T[] {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return [...conversations];
  return conversations.filter((conversation) => conversation.title.toLocaleLowerCase().includes(needle));
}

/** A list date: the time for today, else the date (with the year only when it is not this year). */
export function formatConversationDate(iso: string, now: Date = new Date(), locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (date.toDateString() === now.toDateString()) {
    return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(date);
  }
  const sameYear = date.getFullYear() === now.getFullYear();
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) }).format(date);
}

/** A message's full timestamp, for its title and screen readers. */
export function formatMessageTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
