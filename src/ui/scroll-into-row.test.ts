import { describe, expect, it } from 'vitest';
import { scrollIntoRow } from './scroll-into-row.ts';

/** A row 360 px wide at the page's left edge, scrolled `scrollLeft`, and an item in it. */
function rowWith(itemLeft: number, itemWidth: number, scrollLeft: number) {
  const row = document.createElement('div');
  const item = document.createElement('button');
  row.append(item);
  row.scrollLeft = scrollLeft;
  const rect = (left: number, width: number) =>
    ({ left, right: left + width, width, top: 0, bottom: 40, height: 40 }) as DOMRect;
  row.getBoundingClientRect = () => rect(0, 360);
  // The item's place on screen moves with the row's scroll, as in a browser.
  item.getBoundingClientRect = () => rect(itemLeft - row.scrollLeft, itemWidth);
  return { row, item };
}

describe('scrollIntoRow', () => {
  it('brings an item cut at the right edge into view, with a margin beside it', () => {
    const { row, item } = rowWith(330, 60, 0);
    scrollIntoRow(row, item);
    expect(row.scrollLeft).toBe(46);
    expect(item.getBoundingClientRect().right).toBe(344);
  });

  it('brings an item scrolled off to the left back into view', () => {
    const { row, item } = rowWith(20, 60, 100);
    scrollIntoRow(row, item);
    expect(row.scrollLeft).toBe(4);
    expect(item.getBoundingClientRect().left).toBe(16);
  });

  it('leaves the row alone when the item is already whole in view', () => {
    const { row, item } = rowWith(100, 60, 10);
    scrollIntoRow(row, item);
    expect(row.scrollLeft).toBe(10);
  });
});
