import { useEffect } from 'react';

const productName = 'Satchel';

/** "Pricing" -> "Pricing — Satchel"; no title -> the product's own title. */
export function formatPageTitle(title?: string): string {
  return title
    ? `${title} — ${productName}`
    : `${productName} — the offline-first workspace for freelancers`;
}

/** Sets document.title while the calling screen is shown. */
export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = formatPageTitle(title);
  }, [title]);
}
