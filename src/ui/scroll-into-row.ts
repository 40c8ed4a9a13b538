/**
 * Scrolls a sideways-scrolling row (a phone's tab row) just enough to show `item` whole, with
 * `margin` pixels of the row beside it, so it does not sit cut at the edge. Only the row moves:
 * `scrollIntoView` would also scroll the page, taking the reader away from the heading.
 */
export function scrollIntoRow(row: HTMLElement, item: HTMLElement, margin = 16): void {
  const rowBox = row.getBoundingClientRect();
  const box = item.getBoundingClientRect();
  if (box.left < rowBox.left) row.scrollLeft -= rowBox.left - box.left + margin;
  else if (box.right > rowBox.right) row.scrollLeft += box.right - rowBox.right + margin;
}
