/** Routes of the reservation screens and the admin routes they link to (no feature imports). */

const enc = encodeURIComponent;

export const LIST_PATH = '/reservations';

/**
 * A reservation's page; with the list's search in its address (`?list=`), so the
 * way back to the list as it was left survives a reload or a bookmark of the reservation.
 */
export function editPath(ticketId: string, listSearch = ''): string {
  const search = listSearch.replace(/^\?/, '');
  return `${LIST_PATH}/${enc(ticketId)}${search ? `?list=${enc(search)}` : ''}`;
}

export function historyPath(ticketId: string): string {
  return `${LIST_PATH}/${enc(ticketId)}/history`;
}

export function slotEditPath(roomId: string, timeSlotId: string): string {
  return `/room/${enc(roomId)}/time-slot-edit/${enc(timeSlotId)}`;
}

/** Router state of a link from the list: the list's query, to go back to the same result. */
export interface FromList {
  listSearch: string;
}

export function fromList(search: string): FromList {
  return { listSearch: search.replace(/^\?/, '') };
}

/**
 * The list's last search in this tab: a reservation reached another way than by the
 * list's link (from its history, its slot, a reload without router state) still goes back to the
 * list as it was left, with its filters, sort and page.
 */
let lastListSearch = '';

export function rememberListSearch(search: string): void {
  lastListSearch = search.replace(/^\?/, '');
}

/**
 * The list to go back to: the one the page was opened from (router state), else the list as it
 * was last shown, else the default.
 */
export function backToListPath(routerState: unknown, remembered = lastListSearch): string {
  if (routerState !== null && typeof routerState === 'object' && 'listSearch' in routerState) {
    const search = routerState.listSearch;
    if (typeof search === 'string' && search !== '') return `${LIST_PATH}?${search}`;
  }
  return remembered === '' ? LIST_PATH : `${LIST_PATH}?${remembered}`;
}
