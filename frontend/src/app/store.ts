import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { baseApi, type ThunkExtra } from '../api/base-api';
import { consistencySlice } from '../api/consistency-slice';
import type { AppConfig } from '../lib/config';
import { notificationsSlice } from '../stores/notifications-slice';

// A fixed set of slices (features add endpoints, not slices): the plain reducer map, not
// combineSlices with its lazy injection machinery (0.x KB gzip of the visitor download).
const rootReducer = combineReducers({
  [baseApi.reducerPath]: baseApi.reducer,
  [consistencySlice.reducerPath]: consistencySlice.reducer,
  [notificationsSlice.reducerPath]: notificationsSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(config: AppConfig, preloadedState?: Partial<RootState>) {
  const extra: ThunkExtra = { config };
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: { extraArgument: extra } }).concat(baseApi.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
