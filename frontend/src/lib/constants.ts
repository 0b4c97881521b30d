/** Business constants of spec section 9 used by more than one feature. */
export const MAX_ROOMS = 999;
export const PAGING_SIZE = 20;
export const MAX_RESERVATIONS = 5;
