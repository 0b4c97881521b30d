import { describe, expect, it } from 'vitest';
import { offsetOfPage, pageCount, pageOf, pagerItems, showPager } from './pager';

describe('pager', () => {
  it('numbers pages as offset / 20 + 1', () => {
    expect(pageOf(0)).toBe(1);
    expect(pageOf(19)).toBe(1);
    expect(pageOf(20)).toBe(2);
    expect(pageOf(45)).toBe(3);
    expect(pageOf(-20)).toBe(1);
  });

  it('counts ceil(total / 20) pages, at least one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(1)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
    expect(pageCount(200)).toBe(10);
  });

  it('gives the offset of a page', () => {
    expect(offsetOfPage(1)).toBe(0);
    expect(offsetOfPage(3)).toBe(40);
    expect(offsetOfPage(0)).toBe(0);
  });

  it('shows only with more than one page', () => {
    expect(showPager(0)).toBe(false);
    expect(showPager(20)).toBe(false);
    expect(showPager(21)).toBe(true);
  });

  it('lists the first, last and neighbouring pages with gaps', () => {
    expect(pagerItems(1, 1)).toEqual([1]);
    expect(pagerItems(1, 3)).toEqual([1, 2, 3]);
    expect(pagerItems(1, 10)).toEqual([1, 2, 'gap', 10]);
    expect(pagerItems(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    // A gap of one page shows that page instead.
    expect(pagerItems(4, 10)).toEqual([1, 2, 3, 4, 5, 'gap', 10]);
    expect(pagerItems(10, 10)).toEqual([1, 'gap', 9, 10]);
  });
});
