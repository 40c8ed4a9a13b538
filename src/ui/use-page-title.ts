import { useEffect } from 'react';

const productName = 'Satchel';

/** "Pricing" -> "Pricing — Satchel"; no title -> the product's own title. */
export function formatPageTitle(title?: string): string {
  return title
    ? `${title} — ${productName}`
    : `${productName} — the offline-first workspace for freelancers`;
}

/** Sets document.title while the calling screen is shown; null leaves it to the page around it. */
export function usePageTitle(title?: string | null): void {
  useEffect(() => {
    if (title !== null) document.title = formatPageTitle(title);
  }, [title]);
}
