import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { maxPosition } from '../lib/position';

/** Read-your-writes: the highest event-store position any command answer reported. */
export interface ConsistencyState {
  minPosition: string | null;
}

const initialState: ConsistencyState = { minPosition: null };

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
