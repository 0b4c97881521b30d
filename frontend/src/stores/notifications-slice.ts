import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import type { AppNotification, NotificationType } from '../lib/notifications';

/** Keep at most this many entries; older ones are long invisible anyway. */
const MAX_ENTRIES = 20;

export interface NotificationsState {
  items: AppNotification[];
}

const initialState: NotificationsState = { items: [] };

export interface NotifyInput {
  title: string;
  description?: string;
  type?: NotificationType;
}

export const notificationsSlice = createSlice({
  name: 'notifications',
  initialState,
  reducers: {
    notify: {
      reducer(state, action: PayloadAction<AppNotification>) {
        state.items = [...state.items, action.payload].slice(-MAX_ENTRIES);
      },
      prepare(input: NotifyInput) {
        const notification: AppNotification = {
          id: nanoid(),
          date: Date.now(),
          type: input.type ?? 'success',
          title: input.title,
          ...(input.description ? { description: input.description } : {}),
        };
        return { payload: notification };
      },
    },
  },
  selectors: {
    selectNotifications: (state) => state.items,
  },
});

export const { notify } = notificationsSlice.actions;
export const { selectNotifications } = notificationsSlice.selectors;
