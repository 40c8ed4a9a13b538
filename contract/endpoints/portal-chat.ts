/**
 * The client's part in a project's chat, through the portal session (issues 14 and 15). A member
 * turns it on per project (`update-portal-access`, `chatEnabled`); off, the client's calls answer
 * that chat is off and nothing is shown or stored. The client reads the project's conversation
 * (members' names, never their ids or mentions) and writes as the client: a chat_message with
 * `authorKind` 'client', which reaches the members like any message (live, and by pull).
 */
import * as v from 'valibot';
import { defineEndpoint } from '../define-endpoint.ts';
import { chatTextSchema } from '../entities/chat.ts';
import { idSchema } from '../entities/ids.ts';
import { text } from '../text.ts';

/** Messages in one page of the portal's chat. */
export const PORTAL_CHAT_PAGE = 50;

export const portalChatMessageSchema = v.object({
  id: text(),
  /** Null once its author deleted it ("Message deleted"). */
  text: v.nullable(text()),
  authorKind: v.picklist(['member', 'client']),
  /** The member's name, or the client's as the project's client record has it. */
  authorName: text(),
  /** The server's order (the change-log sequence of the message's create). */
  seq: v.number(),
  createdAt: text(),
  editedAt: v.nullable(text()),
});
export type PortalChatMessage = v.InferOutput<typeof portalChatMessageSchema>;

export const getPortalChat = defineEndpoint({
  resource: 'client-portal',
  operation: 'get-chat-messages',
  method: 'GET',
  auth: 'portal',
  summary:
    "The session's project chat, newest page first (oldest first within it), when a member turned it on for the client; `before` pages back.",
  query: v.strictObject({
    projectId: idSchema,
    /** Messages older than this seq (the first of the page shown). */
    before: v.optional(
      v.pipe(
        text('before must be a number'),
        v.regex(/^\d{1,15}$/, 'before must be a whole number'),
        v.transform(Number),
      ),
    ),
  }),
  output: v.object({
    enabled: v.boolean(),
    messages: v.array(portalChatMessageSchema),
    hasOlder: v.boolean(),
  }),
});

export const sendPortalChatMessage = defineEndpoint({
  resource: 'client-portal',
  operation: 'send-chat-message',
  method: 'POST',
  auth: 'portal',
  summary:
    "The client writes in the session's project chat (when turned on). The id is the page's own, so a message sent twice is stored once; members see it live and are notified.",
  query: v.strictObject({}),
  body: v.strictObject({
    id: idSchema,
    projectId: idSchema,
    text: chatTextSchema,
  }),
  output: v.object({ message: portalChatMessageSchema }),
});

export const portalChatEndpoints = [getPortalChat, sendPortalChatMessage] as const;
