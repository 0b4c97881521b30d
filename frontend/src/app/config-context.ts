import { createContext, useContext } from 'react';
import type { AppConfig } from '../lib/config';

export const ConfigContext = createContext<AppConfig | null>(null);

/** The configuration read from the mount element (docs/product.md#configuration). */
export function useConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig must be used inside ConfigContext');
  return config;
}
