/**
 * The project's Chat tab: the conversation read live from the device (so it opens and takes
 * messages offline), newest at the bottom, older pages loaded as the reader scrolls up (or with
 * "Show earlier messages"), a "New" line above what arrived since the last visit, and the composer.
 *
 * What it keeps true:
 * - At most CHAT_WINDOW_MAX messages are on the page, whatever the chat's length: the tab shows a
 *   range of them (src/data/chat.ts, nextChatRange). Scrolling up reads a page older and, past
 *   the bound, drops as many at the bottom; scrolling down from a range that is not at the newest
 *   brings the newer back and drops from the top. Away from the newest, "Jump to the newest
 *   messages" goes back there.
 * - The message under the reader's eyes stays where it is when rows come or go above or below it
 *   (chat-scroll-anchor.tsx). The view follows new messages only while the reader is at the
 *   newest and at the bottom (or just sent one); otherwise a "New messages" button says so and
 *   jumps down. Up in history, a new message changes nothing on screen.
 * - A row is drawn again only when its message, reactions or attachments' names change: rows are
 *   memoized, unchanged messages keep their objects from one read to the next, and the callbacks
 *   they get keep their identity.
 * - Reading moves the member's read marker (never back) while the tab is visible and at the
 *   bottom, at most once a second: each move is a queued change like any other.
 * - A message the server refused stays in the chat, at the end, with the server's words, Retry
 *   and Edit (Edit corrects it and sends it again; Discard drops it).
 * - Focus: after an edit it returns to the message; replying or editing puts it in the composer
 *   (after the menu has closed, which gives focus back to its button). A delete leaves the message
 *   in place as "Message deleted", without actions, so focus goes on to the next message's
 *   actions (the previous one's after the last, else the composer), as after a removal elsewhere.
 * - A reply or an edit never outlives its message: deleted here, or deleted or removed by anyone
 *   (through sync) while it is open, it closes, so no change is queued that the server refuses.
 */
import { ArrowDown, MessagesSquare } from 'lucide-react';
import { v7 as uuidv7 } from 'uuid';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  CHAT_PAGE,
  chatMessageWrites,
  chatRangeAround,
  markChatRead,
  nextChatRange,
  shareLists,
  shareRows,
  toggleReaction,
  useChatReactions,
  useChatWindow,
  useReadMarker,
  type ChatRange,
  type LocalChatMessage,
  type LocalChatReaction,
} from '../../data/chat.ts';
import { useProjectFiles } from '../../data/files.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import type { LocalProject } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import type { SyncIssue } from '../../db/sync-issue.ts';
import { discardSyncIssue, retrySyncIssue } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { useOnline } from '../activity/activity-timeline.tsx';
import { useFileOpener } from '../files/file-open.ts';
import { useFilesRuntime } from '../files/use-files-runtime.tsx';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { ChatComposer, type ChatDraft, type ChatMember } from './chat-composer.tsx';
import { COMPOSER_INPUT, focusAfterDelete } from './chat-focus.ts';
import {
  ChatMessageItem,
  type ChatAttachment,
  type ChatPeople,
  type ChatReactionEmoji,
} from './chat-message-item.tsx';
import { ScrollAnchor } from './chat-scroll-anchor.tsx';
import { useChatUploads } from './chat-uploads.ts';
import { isGone, useMessageGone } from './use-message-gone.ts';

/** Within this many pixels of the bottom counts as "at the bottom". */
const NEAR_BOTTOM_PX = 120;
/**
 * Within this many pixels (or twice the log's height, if more) of an end, the next page is read:
 * ahead of the reader, so a fast scroll seldom meets the end of the page before the next is in.
 */
const LOAD_MARGIN_PX = 1_500;
/** A message within this long of the same author's previous one shares its header. */
const GROUP_MS = 5 * 60_000;
const READ_DEBOUNCE_MS = 1_000;

function dayKey(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

function dayLabel(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const that = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  const days = Math.round((today.getTime() - that.getTime()) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return date.toLocaleDateString(undefined, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/** One formatter for every row (toLocaleTimeString makes a new one at each call). */
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const formatTime = (iso: string) => timeFormat.format(new Date(iso));

/** The text a refused message was sent with. */
function textOf(issue: SyncIssue): string {
  const value = issue.payload.args.text;
  return typeof value === 'string' ? value : '';
}

function excerpt(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

const newestPage = (): ChatRange => ({ edge: 'newest', size: CHAT_PAGE });
const NO_REACTIONS: readonly LocalChatReaction[] = [];
const NO_ATTACHMENTS: readonly ChatAttachment[] = [];

/** A function of stable identity that always calls the latest `handler` (props of memoized rows). */
function useStableHandler<A extends unknown[], R>(handler: (...args: A) => R): (...args: A) => R {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

/** What the next window shown should do to the view, besides keeping it in place. */
type ChatIntent = { kind: 'bottom' } | { kind: 'show'; id: string };

export default function ChatTab({ project }: { project: LocalProject }) {
  const { handle, userId } = useSync();
  const ctx = useWriteContext();
  const db = handle.db;
  const toaster = useToast();
  const online = useOnline();
  const runtime = useFilesRuntime();
  const opener = useFileOpener(db, runtime);
  const uploads = useChatUploads(db, runtime, project);
  const [range, setRange] = useState(newestPage);
  const read = useChatWindow(db, project.id, range);
  const rowCache = useRef(new Map<string, LocalChatMessage>());
  const chat = useMemo(
    () => read && { ...read, messages: shareRows(rowCache.current, read.messages) },
    [read],
  );
  const reactionRows = useChatReactions(db, project.workspaceId, project.id);
  const reactionCache = useRef(new Map<string, readonly LocalChatReaction[]>());
  const reactions = useMemo(
    () => reactionRows && shareLists(reactionCache.current, reactionRows),
    [reactionRows],
  );
  const marker = useReadMarker(db, project.id, userId);
  const files = useProjectFiles(db, project.workspaceId, project.id);
  const memberRows = useLiveQuery(
    () => db.members.where('workspaceId').equals(project.workspaceId).toArray(),
    [db, project.workspaceId],
  );
  const failed = useLiveQuery(
    async () =>
      (await db.syncIssues.where('workspaceId').equals(project.workspaceId).toArray()).filter(
        (issue) =>
          issue.entity === 'chat-message' &&
          issue.payload.op === 'create' &&
          issue.payload.args.projectId === project.id &&
          !issue.resolved &&
          !issue.overwrote,
      ),
    [db, project.workspaceId, project.id],
  );

  const scroller = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  /** At the newest message and scrolled to the bottom. */
  const atBottom = useRef(true);
  const intent = useRef<ChatIntent | null>({ kind: 'bottom' });
  const shown = useRef<{ range: ChatRange | null; lastId: string | undefined }>({
    range: null,
    lastId: undefined,
  });
  const attachmentCache = useRef(new Map<string, readonly ChatAttachment[]>());
  const openedAt = useRef<number | null>(null);
  const focusAfter = useRef<string | null>(null);
  const [unseen, setUnseen] = useState(false);
  const [replyTo, setReplyTo] = useState<LocalChatMessage | null>(null);
  const [editing, setEditing] = useState<
    { kind: 'message'; message: LocalChatMessage } | { kind: 'failed'; issue: SyncIssue } | null
  >(null);
  const [deleting, setDeleting] = useState<LocalChatMessage | null>(null);
  const editedGone = useMessageGone(db, editing?.kind === 'message' ? editing.message.id : null);
  const replyGone = useMessageGone(db, replyTo?.id ?? null);

  // The read marker when the chat opened: the "New" line stays put while the marker moves on.
  if (openedAt.current === null && marker !== undefined) openedAt.current = marker;

  const members: ChatMember[] = useMemo(
    () =>
      (memberRows ?? [])
        .filter((member) => member.id !== userId)
        .map((member) => ({
          id: member.id,
          name: `${member.firstName} ${member.lastName}`.trim() || member.email,
        })),
    [memberRows, userId],
  );
  const people: ChatPeople = useMemo(() => {
    const names = new Map(
      (memberRows ?? []).map((member) => [
        member.id,
        `${member.firstName} ${member.lastName}`.trim() || member.email,
      ]),
    );
    return {
      memberName: (id) => names.get(id) ?? 'A former member',
      nameOf: (message) =>
        message.authorKind === 'client'
          ? message.authorName || 'The client'
          : message.createdBy === userId
            ? 'You'
            : (names.get(message.createdBy) ?? 'A former member'),
    };
  }, [memberRows, userId]);
  const fileList = useMemo(
    () => (files ?? []).map((file) => ({ id: file.id, name: file.name })),
    [files],
  );
  const fileNames = useMemo(
    () => new Map(fileList.map((file) => [file.id, file.name])),
    [fileList],
  );

  const messages = chat?.messages;
  const byId = useMemo(
    () => new Map((messages ?? []).map((message) => [message.id, message])),
    [messages],
  );
  const newest = messages?.filter((message) => message.seq > 0).at(-1);
  const ready = chat !== undefined && marker !== undefined;
  /** The window shown is the range asked for (not the previous one while a step is read). */
  const current = chat !== undefined && chat.range === range;
  /** Newer messages than the window's exist: the reader is up in history. */
  const away = chat !== undefined && chat.newer > 0;

  const toBottom = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    atBottom.current = true;
    setUnseen(false);
  }, []);

  // Follow the conversation: to the bottom on open, on a jump and on new messages while at the
  // bottom of the newest (or when the new one is mine); else say there is more below. A step
  // through history is left to ScrollAnchor, which kept the reader's message in place.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !chat || !ready || chat.range !== range) return;
    const lastId = chat.messages.at(-1)?.id;
    const navigated = shown.current.range !== chat.range;
    const lastChanged = shown.current.lastId !== lastId;
    shown.current = { range: chat.range, lastId };
    const wanted = intent.current;
    if (wanted) {
      intent.current = null;
      if (wanted.kind === 'bottom') toBottom();
      else {
        const target = document.getElementById(`message-${wanted.id}`);
        target?.scrollIntoView?.({ block: 'center' });
        target?.focus({ preventScroll: true });
      }
      return;
    }
    // Only a new last message at the newest moves the view; edits, reactions and steps do not.
    if (navigated || !lastChanged || chat.newer > 0) return;
    const last = chat.messages.at(-1);
    if (atBottom.current || (last && last.createdBy === userId && last._v === 0)) toBottom();
    else setUnseen(true);
  }, [chat, range, ready, toBottom, userId]);

  // A range that is not the live end but reached it (or holds nothing any more) becomes the live
  // end, so new messages show again.
  useEffect(() => {
    if (!chat || chat.range !== range || range.edge === 'newest') return;
    if (chat.newer > 0 && chat.messages.length > 0) return;
    const ordered = chat.messages.filter((message) => message.seq > 0).length;
    setRange({ edge: 'newest', size: Math.max(CHAT_PAGE, ordered) });
  }, [chat, range]);

  // The message being edited or answered was deleted elsewhere: its bar closes and says why. Focus
  // on the bar's Cancel button (gone with it) goes to the text box; a draft reply is kept.
  useEffect(() => {
    if (!editedGone && !replyGone) return;
    const bar = inputRef.current?.form?.contains(document.activeElement) === true;
    if (editedGone) setEditing(null);
    if (replyGone) setReplyTo(null);
    toaster.show({
      tone: 'info',
      message: editedGone
        ? 'The message you were editing was deleted.'
        : 'The message you were replying to was deleted.',
    });
    if (bar && document.activeElement !== inputRef.current) focusWhenReady(COMPOSER_INPUT);
  }, [editedGone, replyGone, toaster]);

  useLayoutEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(`message-${focusAfter.current}`)?.focus();
    focusAfter.current = null;
  });

  // The marker follows what the member has seen: the newest ordered message, at the bottom.
  const newestSeq = newest?.seq ?? 0;
  const markRead = useCallback(() => {
    if (!atBottom.current || document.visibilityState !== 'visible' || newestSeq === 0) return;
    if (marker !== undefined && marker >= newestSeq) return;
    void markChatRead(ctx, {
      workspaceId: project.workspaceId,
      projectId: project.id,
      seq: newestSeq,
    }).catch(() => undefined);
  }, [ctx, marker, newestSeq, project.workspaceId, project.id]);
  useEffect(() => {
    const timer = setTimeout(markRead, READ_DEBOUNCE_MS);
    document.addEventListener('visibilitychange', markRead);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', markRead);
    };
  }, [markRead]);

  /** One step through history, unless one is on its way; whether one was taken. */
  const step = (direction: 'older' | 'newer'): boolean => {
    if (!chat || !current) return false;
    const next = nextChatRange(chat, direction);
    if (next) setRange(next);
    return next !== null;
  };

  const onScroll = () => {
    const element = scroller.current;
    if (!element || !chat) return;
    const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
    atBottom.current = fromBottom < NEAR_BOTTOM_PX && chat.newer === 0;
    if (atBottom.current) {
      setUnseen(false);
      markRead();
    }
    const margin = Math.max(LOAD_MARGIN_PX, 2 * element.clientHeight);
    if (element.scrollTop < margin && step('older')) return;
    if (fromBottom < margin) step('newer');
  };

  /** Back to the newest page, at the bottom. */
  const toNewest = () => {
    intent.current = { kind: 'bottom' };
    setRange(newestPage());
  };

  /** The Jump button: to the newest; focus goes to the log (the button goes). */
  const jumpToNewest = () => {
    toNewest();
    scroller.current?.focus({ preventScroll: true });
  };

  const jumpToBottom = () => {
    toBottom();
    markRead();
    scroller.current?.focus({ preventScroll: true });
  };

  // A reply's quote: the message it answers, read into the window first when it is not shown.
  const showMessage = useStableHandler((id: string) => {
    const target = document.getElementById(`message-${id}`);
    if (target) {
      target.scrollIntoView?.({ block: 'center' });
      target.focus();
      return;
    }
    void chatRangeAround(db, project.id, id).then((around) => {
      if (!around) {
        toaster.show({ tone: 'info', message: 'That message is no longer on this device.' });
        return;
      }
      intent.current = { kind: 'show', id };
      setRange(around);
    });
  });

  const submit = async (draft: ChatDraft): Promise<string | null> => {
    try {
      if (editing?.kind === 'message') {
        const id = editing.message.id;
        // Deleted a moment ago (the bar closes on its own): saving would only queue a refusal.
        if (isGone(await db.chatMessages.get(id))) return null;
        await chatMessageWrites.update(ctx, id, { text: draft.text, mentions: draft.mentions });
        setEditing(null);
        focusAfter.current = id;
        return null;
      }
      if (editing?.kind === 'failed') {
        await retrySyncIssue(db, editing.issue.id, {
          userId,
          newId: ctx.newId ?? uuidv7,
          args: { ...editing.issue.payload.args, text: draft.text, mentions: draft.mentions },
        });
        setEditing(null);
        return null;
      }
      // Sent from up in history: back to the newest, where the message goes.
      if (away) toNewest();
      atBottom.current = true;
      await chatMessageWrites.create(ctx, {
        workspaceId: project.workspaceId,
        projectId: project.id,
        text: draft.text,
        mentions: draft.mentions,
        replyToId: replyTo?.id ?? null,
        attachmentFileIds: draft.attachmentFileIds,
      });
      setReplyTo(null);
      return null;
    } catch (error) {
      const fields = writeErrorFields(error);
      return (
        fields.text ??
        fields.form ??
        Object.values(fields)[0] ??
        'The message could not be written.'
      );
    }
  };

  const remove = async (message: LocalChatMessage) => {
    setDeleting(null);
    // Deleting it here closes its edit or reply at once, with no word of it (the user did it).
    if (editing?.kind === 'message' && editing.message.id === message.id) setEditing(null);
    if (replyTo?.id === message.id) setReplyTo(null);
    // Its ⋮ button goes with the delete, and the dialog would give focus back to it.
    focusWhenReady(focusAfterDelete(chat?.messages ?? [], message.id));
    try {
      await chatMessageWrites.update(ctx, message.id, { deleted: true });
      toaster.show({ tone: 'success', message: 'Message deleted.' });
    } catch {
      toaster.show({ tone: 'error', message: 'The message could not be deleted on this device.' });
    }
  };

  const openAttachment = useStableHandler((fileId: string) => {
    const file = files?.find((row) => row.id === fileId);
    if (!file) {
      toaster.show(
        uploads.uploadedName(fileId)
          ? { tone: 'info', message: 'That file is still being added: try again in a moment.' }
          : { tone: 'error', message: 'That file is no longer in the project.' },
      );
      return;
    }
    opener.download(file).catch((error: unknown) =>
      toaster.show({
        tone: 'error',
        message: error instanceof Error ? error.message : 'The file could not be opened.',
      }),
    );
  });

  // Chosen from a message's menu, which gives focus back to its ⋮ button as it closes: the
  // composer takes focus once the menu is gone, and keeps it.
  const onReply = useStableHandler((target: LocalChatMessage) => {
    setEditing(null);
    setReplyTo(target);
    focusWhenReady(COMPOSER_INPUT);
  });
  const onEdit = useStableHandler((target: LocalChatMessage) => {
    setReplyTo(null);
    setEditing({ kind: 'message', message: target });
    focusWhenReady(COMPOSER_INPUT);
  });
  const onReact = useStableHandler((target: LocalChatMessage, emoji: ChatReactionEmoji) => {
    void toggleReaction(ctx, target, emoji).catch(() =>
      toaster.show({ tone: 'error', message: 'The reaction could not be saved.' }),
    );
  });

  /** A message's files with their names; the same array while the names stay the same. */
  const attachmentsOf = (message: LocalChatMessage): readonly ChatAttachment[] => {
    if (message.attachmentFileIds.length === 0) return NO_ATTACHMENTS;
    const list = message.attachmentFileIds.map((id) => ({
      id,
      name: fileNames.get(id) ?? uploads.uploadedName(id) ?? 'A file no longer in the project',
    }));
    const before = attachmentCache.current.get(message.id);
    if (
      before &&
      before.length === list.length &&
      before.every((file, i) => file.id === list[i]?.id && file.name === list[i]?.name)
    )
      return before;
    attachmentCache.current.set(message.id, list);
    return list;
  };

  const composerEditing = useMemo(
    () =>
      editing?.kind === 'message'
        ? {
            text: editing.message.text,
            mentions: editing.message.mentions,
            label: 'Editing your message',
          }
        : editing?.kind === 'failed'
          ? {
              text: textOf(editing.issue),
              mentions: (editing.issue.payload.args.mentions as string[] | undefined) ?? [],
              label: 'Correct the message, then send it again',
            }
          : null,
    [editing],
  );

  if (!chat || !ready) {
    return (
      <div role="status" className="flex items-center justify-center gap-3 py-16 text-fg-muted">
        <Spinner /> Loading messages…
      </div>
    );
  }

  const firstUnread = chat.messages.find(
    (message) =>
      message.seq > (openedAt.current ?? 0) && message.createdBy !== userId && !message.deleted,
  )?.id;

  return (
    <section aria-labelledby="project-chat-heading" className="flex flex-col gap-3">
      <h2 id="project-chat-heading" className="sr-only">
        Chat
      </h2>
      <div className="relative">
        <div
          ref={scroller}
          onScroll={onScroll}
          role="log"
          aria-label={`Messages about ${project.name}`}
          tabIndex={0}
          style={{ overflowAnchor: 'none' }}
          className="h-[calc(100dvh-23rem)] min-h-64 sm:h-[min(60vh,40rem)] sm:min-h-72 overflow-y-auto rounded-xl border border-border bg-surface px-1 py-2 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <ScrollAnchor log={scroller} rows={[chat, reactions]}>
            {chat.hasOlder && (
              <div className="flex justify-center py-2">
                <Button variant="ghost" onPress={() => step('older')}>
                  Show earlier messages
                </Button>
              </div>
            )}
            {chat.messages.length === 0 && (failed ?? []).length === 0 ? (
              <div className="flex h-full flex-col items-center justify-center gap-2 px-6 text-center text-fg-muted">
                <MessagesSquare aria-hidden="true" size={28} />
                <p className="font-medium text-fg">No messages yet</p>
                <p className="max-w-sm text-sm">
                  Start the conversation about {project.name}. Everyone in the workspace sees it,
                  and it works offline: messages go out when you are back online.
                </p>
              </div>
            ) : (
              <ol className="flex flex-col">
                {/* One flat list of keyed rows: a nested array per message would be keyed by its
                    index, and a page added above would then mount every row again. */}
                {chat.messages.flatMap((message, index) => {
                  const previous = chat.messages[index - 1];
                  const newDay =
                    !previous || dayKey(previous.createdAt) !== dayKey(message.createdAt);
                  const grouped =
                    !newDay &&
                    previous !== undefined &&
                    !previous.deleted &&
                    previous.createdBy === message.createdBy &&
                    previous.authorKind === message.authorKind &&
                    message.id !== firstUnread &&
                    Date.parse(message.createdAt) - Date.parse(previous.createdAt) < GROUP_MS;
                  return [
                    newDay && (
                      <li
                        key={`day-${message.id}`}
                        aria-hidden="true"
                        className="my-2 flex items-center gap-3 px-2 text-xs font-medium text-fg-muted before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border"
                      >
                        {dayLabel(message.createdAt)}
                      </li>
                    ),
                    message.id === firstUnread && (
                      <li
                        key={`new-${message.id}`}
                        className="my-1 flex items-center gap-3 px-2 text-xs font-semibold text-danger after:h-px after:flex-1 after:bg-danger"
                      >
                        New
                      </li>
                    ),
                    <ChatMessageItem
                      key={message.id}
                      message={message}
                      replyTo={message.replyToId ? byId.get(message.replyToId) : undefined}
                      reactions={reactions?.get(message.id) ?? NO_REACTIONS}
                      attachments={attachmentsOf(message)}
                      people={people}
                      me={userId}
                      online={online}
                      grouped={grouped}
                      formatTime={formatTime}
                      onReply={onReply}
                      onEdit={onEdit}
                      onDelete={setDeleting}
                      onReact={onReact}
                      onOpenAttachment={openAttachment}
                      onShowMessage={showMessage}
                    />,
                  ];
                })}
                {/* Refused messages belong at the newest end. */}
                {!away &&
                  (failed ?? []).map((issue) => (
                    <li
                      key={issue.id}
                      className="mx-2 mt-3 rounded-lg border border-danger/40 bg-danger/5 px-3 py-2"
                    >
                      <p dir="auto" className="text-sm break-words whitespace-pre-wrap text-fg">
                        {excerpt(textOf(issue), 500)}
                      </p>
                      <p className="mt-1 text-xs text-danger">Not sent: {issue.serverMessage}</p>
                      <div className="mt-2 flex flex-wrap gap-2">
                        <Button
                          variant="secondary"
                          onPress={() =>
                            void retrySyncIssue(db, issue.id, {
                              userId,
                              newId: ctx.newId ?? uuidv7,
                            }).catch(() =>
                              toaster.show({
                                tone: 'error',
                                message: 'It could not be queued again.',
                              }),
                            )
                          }
                        >
                          Retry
                        </Button>
                        <Button
                          variant="secondary"
                          onPress={() => {
                            setReplyTo(null);
                            setEditing({ kind: 'failed', issue });
                            inputRef.current?.focus();
                          }}
                        >
                          Edit
                        </Button>
                        <Button variant="ghost" onPress={() => void discardSyncIssue(db, issue.id)}>
                          Discard
                        </Button>
                      </div>
                    </li>
                  ))}
              </ol>
            )}
            {away && (
              <div className="flex justify-center py-2">
                <Button variant="ghost" onPress={() => step('newer')}>
                  Show later messages
                </Button>
              </div>
            )}
          </ScrollAnchor>
        </div>
        {away ? (
          <Button
            variant="primary"
            onPress={jumpToNewest}
            className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow-lg"
          >
            <ArrowDown aria-hidden="true" size={16} /> Jump to the newest messages
          </Button>
        ) : (
          unseen && (
            <Button
              variant="primary"
              onPress={jumpToBottom}
              className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow-lg"
            >
              <ArrowDown aria-hidden="true" size={16} /> New messages
            </Button>
          )
        )}
      </div>
      <ChatComposer
        projectName={project.name}
        members={members}
        files={fileList}
        online={online}
        replyingTo={
          replyTo
            ? {
                author: people.nameOf(replyTo),
                excerpt: replyTo.deleted ? 'Message deleted' : excerpt(replyTo.text, 60),
              }
            : null
        }
        editing={composerEditing}
        onCancel={() => {
          const id = editing?.kind === 'message' ? editing.message.id : null;
          setEditing(null);
          setReplyTo(null);
          if (id) focusAfter.current = id;
        }}
        onSubmit={submit}
        inputRef={inputRef}
        uploads={uploads}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete this message?"
        confirmLabel="Delete"
        isDestructive
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        Everyone in the chat will see “Message deleted” in its place. This cannot be undone.
      </ConfirmDialog>
    </section>
  );
}
