/**
 * Where focus goes in the Chat tab when what held it goes away. The selectors are handed to
 * focusWhenReady (src/ui/focus-when-ready.ts), the app's one way to focus something once it is
 * drawn and keep it there while react-aria gives focus back to a closed menu or dialog's button.
 */
import type { LocalChatMessage } from '../../data/chat.ts';

/** The composer's text box. */
export const COMPOSER_INPUT = 'textarea[data-chat-composer]';

/** The ⋮ button of a message (only a message not deleted has one). */
export const messageActions = (id: string) => `[id="message-${id}"] [data-chat-actions]`;

/**
 * After `id` is deleted (its row stays as "Message deleted", without actions): the next message
 * that still has actions, else the nearest one before it, else the composer.
 */
export function focusAfterDelete(messages: readonly LocalChatMessage[], id: string): string {
  const index = messages.findIndex((message) => message.id === id);
  const open = (message: LocalChatMessage) => !message.deleted && message.id !== id;
  const next =
    index < 0
      ? undefined
      : (messages.slice(index + 1).find(open) ?? messages.slice(0, index).findLast(open));
  return next ? messageActions(next.id) : COMPOSER_INPUT;
}
