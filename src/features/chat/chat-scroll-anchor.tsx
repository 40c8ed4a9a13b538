/**
 * Scroll anchoring for the chat's log, done by hand so it is the same in every browser (Safari has
 * no CSS scroll anchoring; the log turns Chrome's off so the two never both move it): before the
 * rows change, the first message row in view and its distance from the log's top; after, the log
 * scrolls by however far that row moved. Rows added or dropped above or below the reader's
 * message then leave it where it was.
 */
import { Component, type ReactNode, type RefObject } from 'react';

export interface ChatScrollAnchor {
  /** The element id of the message row in view. */
  id: string;
  /** Its top, from the log's visible top (negative: partly scrolled out). */
  offset: number;
}

/**
 * The first of `count` rows (top to bottom) whose bottom is below `viewTop`, by bisection over
 * `bottomOf` (rows in order have rising bottoms); -1 when none is.
 */
export function firstRowInView(
  count: number,
  bottomOf: (index: number) => number,
  viewTop: number,
): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (bottomOf(middle) > viewTop) high = middle;
    else low = middle + 1;
  }
  return low < count ? low : -1;
}

/** The scrollTop that brings a row from `offsetAfter` back to `offsetBefore`. */
export function anchoredScrollTop(
  scrollTop: number,
  offsetBefore: number,
  offsetAfter: number,
): number {
  return scrollTop + (offsetAfter - offsetBefore);
}

const ROWS = 'li[id^="message-"]';

/** The message row in view at the top of `log`, or null when it shows none. */
export function captureAnchor(log: HTMLElement): ChatScrollAnchor | null {
  const rows = log.querySelectorAll<HTMLElement>(ROWS);
  const viewTop = log.getBoundingClientRect().top;
  const index = firstRowInView(
    rows.length,
    (i) => rows[i]?.getBoundingClientRect().bottom ?? Infinity,
    viewTop,
  );
  const row = rows[index];
  return row ? { id: row.id, offset: row.getBoundingClientRect().top - viewTop } : null;
}

/** Scrolls `log` so the anchor's row is where it was; nothing when the row has gone. */
export function restoreAnchor(log: HTMLElement, anchor: ChatScrollAnchor): void {
  const row = log.ownerDocument.getElementById(anchor.id);
  if (!row || !log.contains(row)) return;
  const offset = row.getBoundingClientRect().top - log.getBoundingClientRect().top;
  if (offset !== anchor.offset)
    log.scrollTop = anchoredScrollTop(log.scrollTop, anchor.offset, offset);
}

interface ScrollAnchorProps {
  log: RefObject<HTMLElement | null>;
  /** What the rows are drawn from: a new value in any place is a change to anchor across. */
  rows: readonly unknown[];
  children: ReactNode;
}

const changed = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length !== b.length || a.some((value, i) => value !== b[i]);

/**
 * Keeps the reader's message in place across a change of `rows`. A class for React's
 * getSnapshotBeforeUpdate: the only point where the old rows are still laid out and the new ones
 * about to go in, whatever happened in between (a page read from IndexedDB arrives later than
 * the scroll that asked for it, and the reader may have scrolled on meanwhile). Its update runs
 * before the parent's layout effects, which may then still follow the conversation down.
 */
export class ScrollAnchor extends Component<ScrollAnchorProps> {
  override getSnapshotBeforeUpdate(previous: ScrollAnchorProps): ChatScrollAnchor | null {
    const log = this.props.log.current;
    return log && changed(previous.rows, this.props.rows) ? captureAnchor(log) : null;
  }

  override componentDidUpdate(
    _previous: ScrollAnchorProps,
    _state: unknown,
    anchor: ChatScrollAnchor | null,
  ): void {
    const log = this.props.log.current;
    if (anchor && log) restoreAnchor(log, anchor);
  }

  override render(): ReactNode {
    return this.props.children;
  }
}
