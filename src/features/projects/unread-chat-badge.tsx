/**
 * A project's unread chat messages beside its name in the lists where a member picks a project:
 * the number (99+ above 99), named "3 unread messages" for assistive technology. Nothing at 0.
 */
export function UnreadChatBadge({ count, id }: { count: number; id?: string }) {
  if (count <= 0) return null;
  return (
    <span
      id={id}
      role="img"
      aria-label={count === 1 ? '1 unread message' : `${count} unread messages`}
      className="shrink-0 rounded-full bg-brand px-1.5 py-0.5 text-xs font-semibold text-on-brand tabular-nums"
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
