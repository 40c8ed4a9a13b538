/**
 * The project's Chat tab: the conversation read live from the device (so it opens and takes
 * messages offline), newest at the bottom, older pages loaded as the reader scrolls up (or with
 * "Show earlier messages"), a "New" line above what arrived since the last visit, and the composer.
 *
 * What it keeps true:
 * - The view follows new messages only while the reader is at the bottom (or just sent one);
 *   otherwise a "New messages" button says so and jumps down. Loading older messages keeps the
 *   message under the reader's eyes where it was.
 * - Reading moves the member's read marker (never back) while the tab is visible and at the
 *   bottom, at most once a second: each move is a queued change like any other.
 * - A message the server refused stays in the chat, at the end, with the server's words, Retry
 *   and Edit (Edit corrects it and sends it again; Discard drops it).
 * - Focus: after an edit it returns to the message; a delete leaves the message in place as
 *   "Message deleted" with focus on it; replying or editing puts it in the composer.
 */
import { ArrowDown, MessagesSquare } from 'lucide-react';
import { v7 as uuidv7 } from 'uuid';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  CHAT_PAGE,
  chatMessageWrites,
  markChatRead,
  toggleReaction,
  useChatReactions,
  useChatWindow,
  useReadMarker,
  type LocalChatMessage,
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
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { ChatComposer, type ChatDraft, type ChatMember } from './chat-composer.tsx';
import { ChatMessageItem, type ChatPeople } from './chat-message-item.tsx';
import { useChatUploads } from './chat-uploads.ts';

/** Within this many pixels of the bottom counts as "at the bottom". */
const NEAR_BOTTOM_PX = 120;
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

const formatTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });

/** The text a refused message was sent with. */
function textOf(issue: SyncIssue): string {
  const value = issue.payload.args.text;
  return typeof value === 'string' ? value : '';
}

function excerpt(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

export default function ChatTab({ project }: { project: LocalProject }) {
  const { handle, userId } = useSync();
  const ctx = useWriteContext();
  const db = handle.db;
  const toaster = useToast();
  const online = useOnline();
  const runtime = useFilesRuntime();
  const opener = useFileOpener(db, runtime);
  const uploads = useChatUploads(db, runtime, project);
  const [limit, setLimit] = useState(CHAT_PAGE);
  const chat = useChatWindow(db, project.id, limit);
  const reactions = useChatReactions(db, project.workspaceId, project.id);
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
  const atBottom = useRef(true);
  const keepOffset = useRef<number | null>(null);
  const openedAt = useRef<number | null>(null);
  const focusAfter = useRef<string | null>(null);
  const [unseen, setUnseen] = useState(false);
  const [replyTo, setReplyTo] = useState<LocalChatMessage | null>(null);
  const [editing, setEditing] = useState<
    { kind: 'message'; message: LocalChatMessage } | { kind: 'failed'; issue: SyncIssue } | null
  >(null);
  const [deleting, setDeleting] = useState<LocalChatMessage | null>(null);

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
  const lastId = messages?.at(-1)?.id;

  // Follow the conversation: to the bottom on open and on new messages while at the bottom (or
  // when the new one is mine); else say there is more below. Older pages keep the view in place.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !messages) return;
    if (keepOffset.current !== null) {
      element.scrollTop = element.scrollHeight - keepOffset.current;
      keepOffset.current = null;
      return;
    }
    const last = messages.at(-1);
    if (atBottom.current || (last && last.createdBy === userId && last._v === 0)) {
      element.scrollTop = element.scrollHeight;
      atBottom.current = true;
      setUnseen(false);
    } else {
      setUnseen(true);
    }
    // Only a new last message moves the view; edits and reactions do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lastId, messages === undefined]);

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

  const showOlder = useCallback(() => {
    const element = scroller.current;
    if (element) keepOffset.current = element.scrollHeight - element.scrollTop;
    setLimit((current) => current + CHAT_PAGE);
  }, []);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    atBottom.current =
      element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
    if (atBottom.current) {
      setUnseen(false);
      markRead();
    }
    if (element.scrollTop < 200 && chat?.hasOlder && keepOffset.current === null) showOlder();
  };

  const jumpToBottom = () => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    atBottom.current = true;
    setUnseen(false);
    markRead();
  };

  const showMessage = (id: string) => {
    const target = document.getElementById(`message-${id}`);
    if (target) {
      target.scrollIntoView({ block: 'center' });
      target.focus();
    } else if (chat?.hasOlder) {
      toaster.show({ tone: 'info', message: 'That message is further up: scroll up to load it.' });
    }
  };

  const submit = async (draft: ChatDraft): Promise<string | null> => {
    try {
      if (editing?.kind === 'message') {
        const id = editing.message.id;
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
    focusAfter.current = message.id;
    try {
      await chatMessageWrites.update(ctx, message.id, { deleted: true });
      toaster.show({ tone: 'success', message: 'Message deleted.' });
    } catch {
      toaster.show({ tone: 'error', message: 'The message could not be deleted on this device.' });
    }
  };

  const openAttachment = (fileId: string) => {
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

  if (!chat || marker === undefined) {
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
          className="h-[calc(100dvh-23rem)] min-h-64 sm:h-[min(60vh,40rem)] sm:min-h-72 overflow-y-auto rounded-xl border border-border bg-surface px-1 py-2 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {chat.hasOlder && (
            <div className="flex justify-center py-2">
              <Button variant="ghost" onPress={showOlder}>
                Show earlier messages
              </Button>
            </div>
          )}
          {chat.messages.length === 0 && (failed ?? []).length === 0 ? (
            <div className="flex h-full flex-col items-center justify-center gap-2 px-6 text-center text-fg-muted">
              <MessagesSquare aria-hidden="true" size={28} />
              <p className="font-medium text-fg">No messages yet</p>
              <p className="max-w-sm text-sm">
                Start the conversation about {project.name}. Everyone in the workspace sees it, and
                it works offline: messages go out when you are back online.
              </p>
            </div>
          ) : (
            <ol className="flex flex-col">
              {chat.messages.map((message, index) => {
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
                    reactions={reactions?.get(message.id) ?? []}
                    attachments={message.attachmentFileIds.map((id) => ({
                      id,
                      name:
                        fileNames.get(id) ??
                        uploads.uploadedName(id) ??
                        'A file no longer in the project',
                    }))}
                    people={people}
                    me={userId}
                    online={online}
                    grouped={grouped}
                    formatTime={formatTime}
                    onReply={(target) => {
                      setEditing(null);
                      setReplyTo(target);
                      inputRef.current?.focus();
                    }}
                    onEdit={(target) => {
                      setReplyTo(null);
                      setEditing({ kind: 'message', message: target });
                      inputRef.current?.focus();
                    }}
                    onDelete={setDeleting}
                    onReact={(target, emoji) => {
                      void toggleReaction(ctx, target, emoji).catch(() =>
                        toaster.show({
                          tone: 'error',
                          message: 'The reaction could not be saved.',
                        }),
                      );
                    }}
                    onOpenAttachment={openAttachment}
                    onShowMessage={showMessage}
                  />,
                ];
              })}
              {(failed ?? []).map((issue) => (
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
                          toaster.show({ tone: 'error', message: 'It could not be queued again.' }),
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
        </div>
        {unseen && (
          <Button
            variant="primary"
            onPress={jumpToBottom}
            className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow-lg"
          >
            <ArrowDown aria-hidden="true" size={16} /> New messages
          </Button>
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
