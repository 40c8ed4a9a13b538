import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A page's h1, focused when the page opens, so a screen reader starts where the reader arrived
 * (focus is never left on a link of the page that was left).
 */
export function PageHeading({ id, children }: { id?: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <h1
      {...(id ? { id } : {})}
      ref={heading}
      tabIndex={-1}
      className="text-3xl font-bold tracking-tight text-fg outline-none sm:text-4xl"
    >
      {children}
    </h1>
  );
}
