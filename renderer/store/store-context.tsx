import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { AppState, AppStore } from './index.js';

const StoreContext = createContext<AppStore | undefined>(undefined);

export function StoreProvider(props: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={props.store}>{props.children}</StoreContext.Provider>;
}

function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (store === undefined) throw new Error('useAppStore used outside <StoreProvider>');
  return store;
}

/** Select narrowly: `useAppStore((s) => s.servers[id])`. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}

/** For selectors that build a new array or object each time. */
export function useAppStoreShallow<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), useShallow(selector));
}
