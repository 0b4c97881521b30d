import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { maxPosition } from '../lib/position';
import { readSession, SESSION_KEYS } from '../lib/session-storage';

/** Read-your-writes: the highest event-store position any command answer reported. */
export interface ConsistencyState {
  minPosition: string | null;
}

/**
 * The position of the session's writes before a reload, too: a reload right after a write (a
 * waitlist entry whose place the page asks for) would otherwise read a read model that has not
 * caught up with it yet.
 */
const initialState = (): ConsistencyState => ({ minPosition: readSession(SESSION_KEYS.position) });

export const consistencySlice = createSlice({
  name: 'consistency',
  initialState,
  reducers: {
    positionSeen(state, action: PayloadAction<string>) {
      state.minPosition = maxPosition(state.minPosition, action.payload);
    },
  },
  selectors: {
    selectMinPosition: (state) => state.minPosition,
  },
});

export const { positionSeen } = consistencySlice.actions;
export const { selectMinPosition } = consistencySlice.selectors;
