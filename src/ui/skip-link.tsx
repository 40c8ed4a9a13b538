export interface SkipLinkProps {
  /** id of the element that receives focus; it needs tabIndex={-1}. */
  targetId: string;
}

/**
 * First focusable element of every layout. It moves focus itself instead of following `#id`, so
 * the router never sees a hash navigation.
 */
export function SkipLink({ targetId }: SkipLinkProps) {
  return (
    <a
      href={`#${targetId}`}
      onClick={(event) => {
        event.preventDefault();
        const target = document.getElementById(targetId);
        target?.focus();
        target?.scrollIntoView();
      }}
      className="sr-only z-50 rounded-lg bg-surface px-4 py-3 font-semibold text-fg shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to main content
    </a>
  );
}
