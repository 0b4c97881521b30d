import { PAGING_SIZE } from '../../../lib/constants';

/** docs/product.md#api: page number = offset / page size + 1. */
export function pageOf(offset: number, size = PAGING_SIZE): number {
  return Math.floor(Math.max(0, offset) / size) + 1;
}

/** docs/product.md#api: page count = ceil(total / page size), at least 1. */
export function pageCount(total: number, size = PAGING_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / size));
}

/** The offset of a page (1-based). */
export function offsetOfPage(page: number, size = PAGING_SIZE): number {
  return (Math.max(1, Math.floor(page)) - 1) * size;
}

/** docs/product.md#screens: the pager shows only with more than one page. */
export function showPager(total: number, size = PAGING_SIZE): boolean {
  return pageCount(total, size) > 1;
}

/** A page number to link, or a gap ('…') between distant pages. */
export type PagerItem = number | 'gap';

/**
 * The pages a pager lists: the first, the last and those within `around` of the current one;
 * larger runs left out become one gap.
 */
export function pagerItems(current: number, count: number, around = 1): PagerItem[] {
  const pages = new Set<number>([1, count]);
  for (let page = current - around; page <= current + around; page += 1) {
    if (page >= 1 && page <= count) pages.add(page);
  }
  const sorted = [...pages].sort((a, b) => a - b);
  const items: PagerItem[] = [];
  sorted.forEach((page, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && page - previous === 2) items.push(previous + 1);
    else if (previous !== undefined && page - previous > 2) items.push('gap');
    items.push(page);
  });
  return items;
}
